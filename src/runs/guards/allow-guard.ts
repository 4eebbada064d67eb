/**
 * Allowing a run the value guards stopped, once (docs/PIPELINES.md, Value guards): the new run
 * may send exactly the plan that was stopped. Its plan's digest (every item's resource, key, kind
 * and content hash) must equal the stopped one's, and the stopped run records which run used its
 * allowance (HSETNX), so a second run, or another plan, is checked by the guards again.
 */
import type { GuardReport } from '../../pipeline/index.js';
import type { RedisClient } from '../../redis/index.js';
import type { DeliveryKeys } from '../keys.js';
import { parseRun, type RunRecord } from '../run-record.js';
import { NotFoundError } from '../errors.js';
import { FourEyesError, GuardAllowError } from './guard-errors.js';
import { recordAudit } from '../audit.js';

export interface AllowGuard {
  /** The run the value guards stopped. */
  stoppedRunId: string;
  /** Who allows it: a console token's name, or `cli:<user>`. */
  by: string;
  /** serve.fourEyes: the one who allows must not be the one who started the stopped run. */
  fourEyes: boolean;
}

/**
 * Runs `check`; when it refuses the allowance (four eyes, used, not a guard stop, another plan)
 * the refusal is audited (`run.allow-guard-refused`) before it is thrown.
 */
async function audited<T>(
  redis: RedisClient,
  keys: DeliveryKeys,
  allow: AllowGuard,
  check: () => Promise<T>,
): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof FourEyesError || error instanceof GuardAllowError) {
      await recordAudit(redis, keys, {
        actor: allow.by,
        action: 'run.allow-guard-refused',
        target: allow.stoppedRunId,
        reason: error.code,
      });
    }
    throw error;
  }
}

/**
 * The stopped run, checked to be a value-guard stop of this pipeline not allowed yet, by someone
 * who may; a refusal is audited.
 */
export async function loadStoppedRun(
  redis: RedisClient,
  keys: DeliveryKeys,
  allow: AllowGuard,
  pipeline?: string,
): Promise<RunRecord & { guards: GuardReport }> {
  return await audited(redis, keys, allow, () => checkStoppedRun(redis, keys, allow, pipeline));
}

async function checkStoppedRun(
  redis: RedisClient,
  keys: DeliveryKeys,
  allow: AllowGuard,
  pipeline?: string,
): Promise<RunRecord & { guards: GuardReport }> {
  const run = parseRun(await redis.hgetall(keys.run(allow.stoppedRunId)));
  if (!run)
    throw new NotFoundError('run', allow.stoppedRunId, '`ferry runs` lists the recent runs.');
  if (run.status !== 'guard_stopped' || !run.guards) {
    throw new GuardAllowError(
      `Run ${run.id} was not stopped by the value guards (it is ${run.status}): there is nothing to allow.`,
      { runId: run.id },
    );
  }
  if (pipeline !== undefined && run.pipeline !== pipeline) {
    throw new GuardAllowError(
      `Run ${run.id} is a run of pipeline "${run.pipeline}", not "${pipeline}".`,
      { runId: run.id },
    );
  }
  if (run.guardAllowed) {
    throw new GuardAllowError(
      `The plan of run ${run.id} was already allowed once: run ${run.guardAllowed.runId} sent it. A new stop needs its own decision.`,
      { runId: run.id },
    );
  }
  if (allow.fourEyes) {
    // A run started without a name (a CLI run, a schedule) cannot be told apart from anyone.
    if (allow.by.startsWith('cli:')) {
      throw new FourEyesError(run.id, run.startedBy ?? 'the command line');
    }
    if (run.startedBy === allow.by) throw new FourEyesError(run.id, run.startedBy);
  }
  return run as RunRecord & { guards: GuardReport };
}

/**
 * Uses the stopped run's allowance for `runId`, whose plan has `planDigest`; throws when the plan
 * is not the stopped one or the allowance was used meanwhile.
 */
export async function claimAllowance(
  redis: RedisClient,
  keys: DeliveryKeys,
  allow: AllowGuard,
  pipeline: string,
  planDigest: string | undefined,
  runId: string,
): Promise<void> {
  const stopped = await audited(redis, keys, allow, async () => {
    const run = await checkStoppedRun(redis, keys, allow, pipeline);
    if (planDigest !== run.guards.planDigest) {
      throw new GuardAllowError(
        `The plan is not the one run ${run.id} stopped (the export or what was delivered changed since): ` +
          'nothing was sent. Run it again without --allow-guard to have the new plan checked.',
        { runId: run.id },
      );
    }
    const record = keys.run(run.id);
    if ((await redis.hsetnx(record, 'guardAllowedRunId', runId)) === 0) {
      const by = await redis.hget(record, 'guardAllowedRunId');
      throw new GuardAllowError(
        `The plan of run ${run.id} was already allowed once: run ${by} sent it.`,
        { runId: run.id },
      );
    }
    return run;
  });
  await redis.hset(keys.run(stopped.id), 'guardAllowedBy', allow.by);
  await recordAudit(redis, keys, {
    actor: allow.by,
    action: 'run.allow-guard',
    target: `${stopped.id} -> ${runId}`,
  });
}
