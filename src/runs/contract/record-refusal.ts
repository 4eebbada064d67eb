/**
 * A run refused because the platform's description changed in a way that breaks it is kept as a
 * failed run with the breaking changes (its `contract`), so `ferry runs`, the console and a
 * schedule's history show why the night did not run; the pipeline's webhooks are told (`failed`).
 * Nothing of it was planned or sent.
 */
import { notify, runSummary, type NotifyContext } from '../notify/notify-run.js';
import { recordUnstartedRun, type UnstartedRun } from '../record-unstarted-run.js';
import { parseRun, type RunContract } from '../run-record.js';
import { ContractBreakingError } from './contract-error.js';

export type RefusedRun = Omit<UnstartedRun, 'reason'>;

/** Records the refused run, tells its webhooks, and returns the error naming it, to throw. */
export async function refuseRun(
  ctx: NotifyContext,
  run: RefusedRun,
  contract: RunContract,
): Promise<ContractBreakingError> {
  // Short, as `ferry runs` and the overview show it; the changes are in the run's `contract`.
  const first = contract.changes[0];
  const reason =
    `FERRY_CONTRACT_BREAKING: ${contract.changes.length} breaking change(s) to the platform's ` +
    `description${first ? `, e.g. ${first.path}` : ''}; see \`ferry interface diff\``;
  const runId = await recordUnstartedRun(ctx.redis, ctx.keys, { ...run, reason }, 'failed', {
    contract: JSON.stringify(contract),
  });
  const recorded = parseRun(await ctx.redis.hgetall(ctx.keys.run(runId)));
  if (recorded) await notify(ctx, run.pipeline, 'failed', runId, runSummary(recorded, 'failed'));
  return new ContractBreakingError({
    pipeline: run.pipeline,
    runId,
    pinned: contract.pinned,
    seen: contract.sha256,
    breaking: contract.changes,
  });
}
