/**
 * A replay is a run of its own (kind `replay`, lane `interactive`): one job per dead letter, each
 * removing its entry when it settles (a failure writes a new entry), in the stages of the
 * pipeline's operations, so a product goes before its price as in the run that failed them (the
 * platform refuses a price whose product it does not have). It takes the pipeline's run lock like
 * any run, so it never races a run of the same pipeline, and as a run it goes only to the platform
 * its pipeline's state belongs to (claim-platform.ts), and only workers of it deliver it.
 */
import { context } from '@opentelemetry/api';
import type { RedisClient } from '../redis/index.js';
import { inSpan } from '../logging/index.js';
import type { FerryConfig } from '../config/index.js';
import { groupBy } from '../base/index.js';
import { loadPipeline } from '../pipeline/index.js';
import { platformUrl } from '../state/index.js';
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
import { claimReplayPlatform } from './claim-platform.js';
import { activeTraceId } from './run-span.js';

/** Starts the replay as the span `ferry.run` (docs/TRACES.md), its stages' and jobs' parent. */
export function startReplay(...args: Parameters<typeof recordReplay>): Promise<string> {
  const [, , config, pipeline] = args;
  const attributes = {
    'ferry.pipeline': pipeline,
    'ferry.platform': platformUrl(config.interface),
    'ferry.run_kind': 'replay',
  };
  return inSpan('ferry.run', { attributes }, context.active(), async (span) => {
    const runId = await recordReplay(...args);
    span.setAttribute('ferry.run_id', runId);
    return runId;
  });
}

async function recordReplay(
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
  const stages = replayStages(config, pipeline, replays);
  for (const stage of stages) {
    for (const r of stage.replays) {
      writer.push({
        id: r.request.idempotencyKey,
        stage: stage.info.index,
        requests: [r.request],
        replayOf: [r.entry.id],
      });
      planned[r.entry.operationId] = (planned[r.entry.operationId] ?? 0) + r.request.items.length;
    }
  }
  const fields: Record<string, string | number> = {
    id: runId,
    pipeline,
    kind: 'replay',
    trigger: 'replay',
    lane: 'interactive',
    status: 'running',
    platform: platformUrl(config.interface),
    version: 0,
    rows: 0,
    rejected: 0,
    createdAt: Date.now(),
    stageCount: stages.length,
    stages: JSON.stringify(stages.map((s) => s.info)),
    currentStage: 0,
    releasedStage: -1,
  };
  for (const s of stages) fields[`pending:${s.info.index}`] = s.info.jobs;
  for (const [id, n] of Object.entries(planned)) fields[`op:${id}:planned`] = n;
  if (config.contract) fields.descriptionSha = config.contract.sha256;
  fields.replayOf = JSON.stringify([...new Set(replays.map((r) => r.entry.runId))].sort());
  const traceId = activeTraceId();
  if (traceId) fields.traceId = traceId;
  try {
    await claimReplayPlatform({ config, redis }, pipeline);
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
    await writer.discard(stages.length);
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

/**
 * The replays in stages, in the order of the pipeline's stages: the first holds the operations of
 * its earliest stage with any, and so on; operations the pipeline no longer has (its file changed)
 * go last. A pipeline whose file does not load now gets one stage: its dead letters still go.
 */
function replayStages(
  config: FerryConfig,
  pipeline: string,
  replays: readonly ReplayRequest[],
): { info: StageInfo; replays: ReplayRequest[] }[] {
  let order: readonly (readonly string[])[] = [];
  try {
    order = loadPipeline(pipeline, config).stages;
  } catch {
    // One stage, as replays had before stages.
  }
  const stageOf = (operationId: string) => {
    const i = order.findIndex((ops) => ops.includes(operationId));
    return i === -1 ? order.length : i;
  };
  return [...groupBy(replays, (r) => stageOf(r.entry.operationId)).entries()]
    .sort(([a], [b]) => a - b)
    .map(([, list], index) => ({
      info: {
        index,
        operationIds: [...new Set(list.map((r) => r.entry.operationId))],
        jobs: list.length,
        requests: list.length,
      },
      replays: list,
    }));
}
