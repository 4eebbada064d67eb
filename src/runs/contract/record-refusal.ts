/**
 * A run refused because the platform's description changed in a way that breaks it is kept as a
 * failed run with the breaking changes (its `contract`), so `ferry runs`, the console and a
 * schedule's history show why the night did not run; the pipeline's webhooks are told (`failed`).
 * Nothing of it was planned or sent.
 */
import type { RedisClient } from '../../redis/index.js';
import { RETENTION_S } from '../finish-run.js';
import type { DeliveryKeys, Lane } from '../keys.js';
import { countRunEnd } from '../metrics/metric-fields.js';
import { notify, runSummary, type NotifyContext } from '../notify/notify-run.js';
import { indexRun } from '../run-index.js';
import { newRunId } from '../run-id.js';
import { parseRun, type RunContract, type Trigger } from '../run-record.js';
import { ContractBreakingError } from './contract-error.js';

export interface RefusedRun {
  pipeline: string;
  lane: Lane;
  trigger: Trigger;
  startedBy?: string;
  file?: string;
  scheduledAt?: number;
  lateSeconds?: number;
}

async function record(
  redis: RedisClient,
  keys: DeliveryKeys,
  runId: string,
  run: RefusedRun,
  reason: string,
  contract: RunContract,
): Promise<void> {
  const now = Date.now();
  const fields: Record<string, string | number> = {
    id: runId,
    pipeline: run.pipeline,
    kind: 'sync',
    trigger: run.trigger,
    lane: run.lane,
    status: 'failed',
    reason,
    version: 0,
    rows: 0,
    rejected: 0,
    createdAt: now,
    finishedAt: now,
    stages: '[]',
    contract: JSON.stringify(contract),
  };
  if (run.startedBy) fields.startedBy = run.startedBy;
  if (run.file) fields.file = run.file;
  if (run.scheduledAt !== undefined) fields.scheduledAt = run.scheduledAt;
  if (run.lateSeconds !== undefined) fields.lateSeconds = run.lateSeconds;
  const multi = redis.multi().hset(keys.run(runId), fields).expire(keys.run(runId), RETENTION_S);
  countRunEnd(multi, keys.metrics, run.pipeline, 'failed');
  await indexRun(multi, keys, { id: runId, pipeline: run.pipeline }, now).exec();
}

/** Records the refused run, tells its webhooks, and returns the error naming it, to throw. */
export async function refuseRun(
  ctx: NotifyContext,
  run: RefusedRun,
  contract: RunContract,
): Promise<ContractBreakingError> {
  const runId = newRunId(run.pipeline);
  const details = {
    pipeline: run.pipeline,
    runId,
    pinned: contract.pinned,
    seen: contract.sha256,
    breaking: contract.changes,
  };
  // Short, as `ferry runs` and the overview show it; the changes are in the run's `contract`.
  const first = contract.changes[0];
  const reason =
    `FERRY_CONTRACT_BREAKING: ${contract.changes.length} breaking change(s) to the platform's ` +
    `description${first ? `, e.g. ${first.path}` : ''}; see \`ferry interface diff\``;
  await record(ctx.redis, ctx.keys, runId, run, reason, contract);
  const recorded = parseRun(await ctx.redis.hgetall(ctx.keys.run(runId)));
  if (recorded) await notify(ctx, run.pipeline, 'failed', runId, runSummary(recorded, 'failed'));
  return new ContractBreakingError(details);
}
