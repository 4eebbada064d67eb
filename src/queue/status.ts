/** What `ferry status` shows: the queues of each lane, the runs in progress, the dead letters. */
import type { RedisClient } from '../redis/index.js';
import {
  createDeadLetterStore,
  readDataLoss,
  type DataLoss,
  LANES,
  type DeliveryKeys,
  type Lane,
  itemTotals,
  parseRun,
  settledItems,
} from '../runs/index.js';
import { openQueues } from './queues.js';

export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

export interface ActiveRunStatus {
  runId: string;
  pipeline: string;
  /** running, or cancelling (`ferry cancel` waits for its jobs in flight). */
  status: string;
  kind: string;
  lane: Lane;
  startedAt: string;
  stage: number;
  stages: number;
  settledItems: number;
  plannedItems: number;
  failedItems: number;
}

export interface DeliveryStatus {
  queues: Record<Lane, QueueCounts>;
  /** ms the whole delivery still waits for a platform's Retry-After (0: not paused). */
  pausedForMs: number;
  activeRuns: ActiveRunStatus[];
  deadLetters: number;
  /** The last time Redis lost its data, as a Ferry process noticed it; absent when it never did. */
  dataLoss?: DataLoss;
}

export async function readStatus(redis: RedisClient, keys: DeliveryKeys): Promise<DeliveryStatus> {
  const queues = openQueues(redis, keys);
  try {
    const counts = {} as Record<Lane, QueueCounts>;
    for (const lane of LANES) {
      const c = await queues[lane].getJobCounts(
        'waiting',
        'prioritized',
        'active',
        'delayed',
        'failed',
      );
      counts[lane] = {
        waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
        active: c.active ?? 0,
        delayed: c.delayed ?? 0,
        failed: c.failed ?? 0,
      };
    }
    const activeRuns: ActiveRunStatus[] = [];
    for (const runId of (await redis.smembers(keys.activeRuns)).sort()) {
      const run = parseRun(await redis.hgetall(keys.run(runId)));
      if (!run) continue;
      const { done, planned } = settledItems(run);
      activeRuns.push({
        runId,
        pipeline: run.pipeline,
        status: run.status,
        kind: run.kind,
        lane: run.lane,
        startedAt: new Date(run.createdAt).toISOString(),
        stage: Math.min(run.currentStage + 1, run.stages.length),
        stages: run.stages.length,
        settledItems: done,
        plannedItems: planned,
        failedItems: itemTotals(run.operations).failed,
      });
    }
    const pause = await redis.pttl(keys.pause);
    const dataLoss = await readDataLoss(redis, keys);
    return {
      queues: counts,
      pausedForMs: Math.max(0, pause),
      activeRuns,
      deadLetters: await createDeadLetterStore(redis, keys).count(),
      ...(dataLoss ? { dataLoss } : {}),
    };
  } finally {
    await queues.close();
  }
}
