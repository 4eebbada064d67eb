/**
 * `ferry dlq replay`: the selected dead letters are sent again, with edited payloads where given,
 * as replay runs (one per pipeline), followed to their end with an in-process worker unless told
 * otherwise. An entry whose items are older than what was applied since is skipped as stale. A
 * dry run shows what would be sent and what would be skipped, and changes nothing.
 */
import type { Writable } from 'node:stream';
import { groupBy } from '../base/index.js';
import type { RedisClient } from '../redis/index.js';
import { type FerryConfig, splitPipelineName } from '../config/index.js';
import { resolveBindings } from '../interface/index.js';
import type { Logger } from '../logging/index.js';
import { operationContracts } from '../pipeline/index.js';
import { createStateStore } from '../state/index.js';
import {
  connectDelivery,
  classifyItems,
  startDeliveryWorker,
  type DeliveryWorker,
  type EditedPayloads,
  replayRequest,
  type ReplayRequest,
  selectDeadLetters,
  type DeadLetterSelection,
} from '../queue/index.js';
import {
  deliveryKeys,
  type DeliveryKeys,
  finishRun,
  followRun,
  progressDisplay,
  isFinished,
  type RunReport,
  createDeadLetterStore,
  contractedConfig,
  pipelineConfig,
} from '../runs/index.js';
import { startReplay } from './start-replay.js';

export type ReplayOutcome =
  'delivered' | 'stale' | 'failed' | 'pending' | 'would send' | 'would skip (stale)';

export interface ReplayedEntry {
  id: string;
  operationId: string;
  keys: string[];
  edited: boolean;
  outcome: ReplayOutcome;
  /** The new dead letter, when the replay failed again. */
  deadLetterId?: string;
}

export interface ReplayReport {
  dryRun: boolean;
  entries: ReplayedEntry[];
  runs: RunReport[];
  delivered: number;
  stale: number;
  failed: number;
}

/** What a replay sends by on one platform. */
interface PlatformReplay {
  config: FerryConfig;
  bindings: ReturnType<typeof resolveBindings>;
  contracts: Awaited<ReturnType<typeof operationContracts>> | undefined;
}

export interface ReplayOptions {
  config: FerryConfig;
  logger: Logger;
  selection: DeadLetterSelection;
  payloads?: EditedPayloads;
  dryRun: boolean;
  localWorker?: boolean;
  progress?: Writable;
  signal?: AbortSignal;
}

/** After the replay: failed (a new dead letter names it), stale (state is newer) or delivered. */
async function outcomes(
  redis: RedisClient,
  keys: DeliveryKeys,
  config: FerryConfig,
  replays: readonly ReplayRequest[],
): Promise<ReplayedEntry[]> {
  const dlq = createDeadLetterStore(redis, keys);
  const failures = new Map(
    (await dlq.list()).filter((e) => e.replayOf).map((e) => [e.replayOf, e.id]),
  );
  const state = createStateStore(redis, config.redis.prefix);
  const out: ReplayedEntry[] = [];
  for (const r of replays) {
    const base = {
      id: r.entry.id,
      operationId: r.entry.operationId,
      keys: r.request.items.map((i) => i.key),
      edited: r.edited,
    };
    const failedAs = failures.get(r.entry.id);
    if (failedAs) {
      out.push({ ...base, outcome: 'failed', deadLetterId: failedAs });
      continue;
    }
    if (await dlq.get(r.entry.id)) {
      out.push({ ...base, outcome: 'pending' });
      continue;
    }
    const { stale } = await classifyItems(state, r.entry.pipeline, [r.request]);
    out.push({ ...base, outcome: stale.length === r.request.items.length ? 'stale' : 'delivered' });
  }
  return out;
}

async function dryRun(
  redis: RedisClient,
  config: FerryConfig,
  replays: readonly ReplayRequest[],
): Promise<ReplayedEntry[]> {
  const state = createStateStore(redis, config.redis.prefix);
  const out: ReplayedEntry[] = [];
  for (const r of replays) {
    const { stale } = await classifyItems(state, r.entry.pipeline, [r.request]);
    out.push({
      id: r.entry.id,
      operationId: r.entry.operationId,
      keys: r.request.items.map((i) => i.key),
      edited: r.edited,
      outcome: stale.length === r.request.items.length ? 'would skip (stale)' : 'would send',
    });
  }
  return out;
}

function totals(entries: ReplayedEntry[]): Pick<ReplayReport, 'delivered' | 'stale' | 'failed'> {
  const count = (o: ReplayOutcome): number => entries.filter((e) => e.outcome === o).length;
  return { delivered: count('delivered'), stale: count('stale'), failed: count('failed') };
}

export async function replayDeadLetters(options: ReplayOptions): Promise<ReplayReport> {
  const { logger } = options;
  const redis = await connectDelivery(
    options.config.redis,
    'replaying puts the dead letter back on a queue there',
  );
  const keys = deliveryKeys(options.config.redis.prefix);
  const dlq = createDeadLetterStore(redis, keys);
  let worker: DeliveryWorker | undefined;
  try {
    const config = await contractedConfig(options.config, redis, keys);
    // Each dead letter goes back by its own platform's bindings (config/platforms.ts).
    const onPlatform = new Map<string, Promise<PlatformReplay>>();
    const platformOf = (pipeline: string): Promise<PlatformReplay> => {
      const platform = splitPipelineName(pipeline).platform;
      let found = onPlatform.get(platform);
      if (!found) {
        found = pipelineConfig(config, pipeline, redis, keys).then(async (scoped) => ({
          config: scoped,
          bindings: resolveBindings(scoped.interface.bindings),
          contracts:
            scoped.contract && options.payloads ? await operationContracts(scoped) : undefined,
        }));
        onPlatform.set(platform, found);
      }
      return found;
    };
    const entries = await selectDeadLetters(dlq, options.selection);
    const replays: ReplayRequest[] = [];
    for (const entry of entries) {
      const { bindings, contracts } = await platformOf(entry.pipeline);
      const binding = bindings.get(entry.operationId);
      if (!binding) throw new Error(`no binding for ${entry.operationId}`);
      replays.push(replayRequest(entry, binding, options.payloads, contracts));
    }
    if (options.dryRun) {
      const dry = await dryRun(redis, config, replays);
      return { dryRun: true, entries: dry, runs: [], ...totals(dry) };
    }
    if (replays.length === 0) return { dryRun: false, entries: [], runs: [], ...totals([]) };
    if (options.localWorker !== false) worker = await startDeliveryWorker({ config, logger });
    const runIds: string[] = [];
    for (const [pipeline, list] of groupBy(replays, (r) => r.entry.pipeline)) {
      runIds.push(
        await startReplay(redis, keys, (await platformOf(pipeline)).config, pipeline, list),
      );
    }
    const runs: RunReport[] = [];
    for (const runId of runIds) {
      const display = options.progress ? progressDisplay(options.progress) : undefined;
      const run = await followRun(redis, keys, runId, (r) => display?.update(r), options.signal);
      display?.end();
      if (isFinished(run)) {
        runs.push(await finishRun(redis, keys, dlq, runId, config.delivery.reportsDir));
      }
    }
    const done = await outcomes(redis, keys, config, replays);
    return { dryRun: false, entries: done, runs, ...totals(done) };
  } finally {
    await worker?.close();
    await redis.quit();
  }
}
