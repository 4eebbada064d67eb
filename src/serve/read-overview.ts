/**
 * What the overview shows, read from Redis in a handful of round trips: each pipeline with its
 * last run and its run in progress, the queues by lane, the items delivered per minute over the
 * last hour, the dead letters by pipeline, the latest operator actions, and a change of the
 * platform's description to the pinned one not accepted yet.
 */
import {
  readThroughput,
  type ThroughputPoint,
  isFinished,
  standsForPipeline,
  type RunRecord,
  indexedRunIds,
  readRunRecords,
  pendingContract,
  type PendingContract,
  type AuditEntry,
} from '../runs/index.js';
import { DEFAULT_PLATFORM } from '../config/index.js';
import type { PlatformFilter } from './platform-scope.js';
import { readAuditOf } from './read-audit.js';
import { readPipelines, type PipelineView } from './routes/api-pipelines.js';
import { readQueues, type QueueView } from './routes/api-queues.js';
import type { ServeContext } from './serve-context.js';

/** Runs looked through for a pipeline's last ended sync run (those after it: in progress, replays). */
const RECENT = 20;

export interface PipelineCard {
  view: PipelineView;
  /** Its last sync (or export) run that ended; replays never stand for it. */
  lastRun?: RunRecord;
  /** Its run in progress, if any. */
  active?: RunRecord;
  deadLetters: number;
}

export interface Overview {
  now: number;
  pipelines: PipelineCard[];
  /** The installation's lanes and throughput, shared by every platform: absent for a filter. */
  queues?: QueueView[];
  throughput?: ThroughputPoint[];
  audit: AuditEntry[];
  /** The platform's description differs from the pinned one (`ferry interface diff`). */
  contract?: PendingContract;
}

/**
 * The overview of the platforms the filter keeps (all without one). The lanes and the throughput
 * are every platform's together: read only without a filter; so is the default platform's pending
 * description change, unless the filter keeps `default`.
 */
export async function readOverview(
  ctx: ServeContext,
  platforms: PlatformFilter,
): Promise<Overview> {
  const now = Date.now();
  const shared = platforms === undefined;
  const [views, queues, throughput, audit, activeIds, contract] = await Promise.all([
    readPipelines(ctx, platforms),
    shared ? readQueues(ctx) : undefined,
    shared ? readThroughput(ctx.redis, ctx.keys, now) : undefined,
    readAuditOf(ctx, platforms, 5),
    ctx.redis.smembers(ctx.keys.activeRuns),
    platforms?.has(DEFAULT_PLATFORM) !== false ? pendingContract(ctx.redis, ctx.keys) : undefined,
  ]);
  // The last run that ended: the one in progress is shown beside it.
  const recent = await Promise.all(
    views.map(async (v) => {
      const { ids } = await indexedRunIds(ctx.redis, ctx.keys, {
        pipeline: v.name,
        start: 0,
        count: RECENT,
      });
      // Replays, undos and repairs are listed with the runs but never stand for the pipeline;
      // nor does a stop an operator allowed: the run it allowed does (running, or ended).
      return (await readRunRecords(ctx.redis, ctx.keys, ids)).find(
        (r) => r && isFinished(r) && standsForPipeline(r) && !r.guardAllowed && !r.deletesAllowed,
      );
    }),
  );
  const records = await readRunRecords(ctx.redis, ctx.keys, activeIds);
  const byId = new Map(records.flatMap((r) => (r ? [[r.id, r] as const] : [])));
  const deadLetters = await Promise.all(views.map((v) => ctx.dlq.count({ pipeline: v.name })));
  const pipelines = views.map((view, i): PipelineCard => {
    const card: PipelineCard = { view, deadLetters: deadLetters[i]! };
    const last = recent[i];
    if (last) card.lastRun = last;
    const active = activeIds.map((id) => byId.get(id)).find((r) => r?.pipeline === view.name);
    if (active) card.active = active;
    return card;
  });
  return {
    now,
    pipelines,
    audit,
    ...(queues ? { queues } : {}),
    ...(throughput ? { throughput } : {}),
    ...(contract ? { contract } : {}),
  };
}
