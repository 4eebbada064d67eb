import { FerryError } from '../../errors/index.js';

/** An allow-once that cannot be given: not a value-guard stop, used already, or another plan. */
export class GuardAllowError extends FerryError<'FERRY_GUARD_ALLOW'> {
  readonly code = 'FERRY_GUARD_ALLOW';
  override readonly exitCode = 2;
}

/** serve.fourEyes: the operator who allows a stopped run must not be the one who started it. */
export class FourEyesError extends FerryError<'FERRY_FOUR_EYES'> {
  readonly code = 'FERRY_FOUR_EYES';
  override readonly exitCode = 2;

  constructor(runId: string, who: string) {
    super(
      `Run ${runId} was started by ${who}; with serve.fourEyes another operator must allow it.`,
      { runId },
    );
  }
}
