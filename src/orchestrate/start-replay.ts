/**
 * A replay is a run of its own (kind `replay`, lane `interactive`, one stage): one job per dead
 * letter, each removing its entry when it settles (a failure writes a new entry). It takes the
 * pipeline's run lock like any run, so it never races a run of the same pipeline.
 */
import type { RedisClient } from '../redis/index.js';
import type { FerryConfig } from '../config/index.js';
import { type ReplayRequest, openQueues, releaseStage } from '../queue/index.js';
import {
  type DeliveryKeys,
  newRunId,
  indexRun,
  keepRunDescription,
  lockPipeline,
  type StageInfo,
  StageWriter,
} from '../runs/index.js';

export async function startReplay(
  redis: RedisClient,
  keys: DeliveryKeys,
  config: FerryConfig,
  pipeline: string,
  replays: readonly ReplayRequest[],
): Promise<string> {
  const runId = newRunId(`${pipeline}-replay`);
  const lock = await lockPipeline(redis, keys, pipeline, runId);
  const writer = new StageWriter(redis, keys, runId);
  const planned: Record<string, number> = {};
  for (const r of replays) {
    writer.push({
      id: r.request.idempotencyKey,
      stage: 0,
      requests: [r.request],
      replayOf: [r.entry.id],
    });
    planned[r.entry.operationId] = (planned[r.entry.operationId] ?? 0) + r.request.items.length;
  }
  const stage: StageInfo = {
    index: 0,
    operationIds: Object.keys(planned),
    jobs: replays.length,
    requests: replays.length,
  };
  const fields: Record<string, string | number> = {
    id: runId,
    pipeline,
    kind: 'replay',
    trigger: 'replay',
    lane: 'interactive',
    status: 'running',
    version: 0,
    rows: 0,
    rejected: 0,
    createdAt: Date.now(),
    stageCount: 1,
    stages: JSON.stringify([stage]),
    currentStage: 0,
    releasedStage: -1,
    'pending:0': replays.length,
  };
  for (const [id, n] of Object.entries(planned)) fields[`op:${id}:planned`] = n;
  if (config.contract) fields.descriptionSha = config.contract.sha256;
  try {
    await writer.flush();
    // Before the run is recorded: a replay whose lock lapsed must not start.
    await lock.keep();
    if (config.contract) await keepRunDescription(redis, keys, config.contract);
    await indexRun(
      redis.multi().hset(keys.run(runId), fields),
      keys,
      { id: runId, pipeline },
      Date.now(),
    )
      .sadd(keys.activeRuns, runId)
      .exec();
    await writer.keep();
  } catch (error) {
    await writer.discard(1);
    await lock.release();
    throw error;
  }
  const queues = openQueues(redis, keys);
  try {
    await releaseStage(
      { redis, keys, queues, delivery: config.delivery },
      { id: runId, pipeline, lane: 'interactive' },
      0,
    );
  } finally {
    await queues.close();
  }
  return runId;
}
