import { FerryError } from '../../errors/index.js';
import { guardReason, type GuardReport } from './guard-report.js';

export interface ValueGuardDetails {
  pipeline: string;
  guards: GuardReport;
  /** The run the guards stopped, once recorded. */
  runId?: string;
}

/**
 * The value guards (docs/PIPELINES.md, Value guards) stopped a plan: prices moved too far, too
 * many fields changed or were emptied, or the export is much shorter than the last. Nothing is
 * sent. Exit code 1.
 */
export class ValueGuardError extends FerryError<'FERRY_VALUE_GUARD'> {
  readonly code = 'FERRY_VALUE_GUARD';
  /** What the guards found, typed (the details carry it as plain data). */
  readonly report: GuardReport;

  constructor(details: ValueGuardDetails) {
    const { pipeline, guards, runId } = details;
    const reasons = guards.results.filter((r) => r.tripped).map(guardReason);
    super(
      `Plan of pipeline "${pipeline}" stopped by the value guards: ${reasons.join('; ')}. ` +
        'Nothing was sent. Look at the samples (ferry runs, or the run in the console); if the ' +
        (runId
          ? `export is right, allow this very plan once with \`ferry run ${pipeline} --allow-guard ${runId}\` ` +
            '(it reads the input the stopped run kept; no --file needed) or the Allow button of ' +
            `the run's page in the console. The stop is recorded as run ${runId}.`
          : 'export is right, run it and allow the stopped run once with --allow-guard RUN.'),
      { ...details },
    );
    this.report = guards;
  }
}
