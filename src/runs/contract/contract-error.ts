import { FerryError, type ErrorDetails } from '../../errors/index.js';

/**
 * The platform's description changed since it was pinned in a way that breaks what this run
 * sends (docs/INTERFACE.md, Pinning the description): the run is refused before anything is sent.
 * Names each change by its JSON pointer and says what to do. Exit 2, like a config that does not fit.
 */
export class ContractBreakingError extends FerryError<'FERRY_CONTRACT_BREAKING'> {
  readonly code = 'FERRY_CONTRACT_BREAKING';
  override readonly exitCode = 2;

  constructor(details: ErrorDetails<'FERRY_CONTRACT_BREAKING'>) {
    const lines = details.breaking.map((c) => `  ${c.path}: ${c.message}`);
    super(
      `The platform's description changed since it was pinned (${details.pinned.slice(0, 12)} -> ` +
        `${details.seen.slice(0, 12)}) in ${details.breaking.length} way(s) that break pipeline ` +
        `"${details.pipeline}"; nothing was sent${details.runId ? ` (run ${details.runId})` : ''}:\n` +
        `${lines.join('\n')}\n` +
        'See `ferry interface diff`; adapt the pipeline or its bindings, then `ferry interface accept`.',
      details,
    );
  }
}
