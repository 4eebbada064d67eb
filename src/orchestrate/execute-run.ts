/**
 * `ferry run` end to end: start the run, and with `wait` follow it to its end (with an in-process
 * worker unless `localWorker` is false, so `--wait` needs nothing else running), then write and
 * return its report. Without `wait` the run is left to `ferry worker` processes.
 */
import type { Writable } from 'node:stream';
import type { FerryConfig } from '../config/index.js';
import type { Logger } from '../logging/index.js';
import type { AllowDeletes, SourceSpec } from '../pipeline/index.js';
import type { RedisClient } from '../redis/index.js';
import { connectDelivery, startDeliveryWorker, type DeliveryWorker } from '../queue/index.js';
import {
  watchEpoch,
  type EpochWatcher,
  NotFoundError,
  RedisDataLostError,
  RunInterruptedError,
  createDeadLetterStore,
  deliveryKeys,
  type DeliveryKeys,
  type Lane,
  finishRun,
  followRun,
  progressDisplay,
  isFinished,
  type RunRecord,
  buildRunReport,
  type RunReport,
  type AllowGuard,
} from '../runs/index.js';
import { startRun } from './start-run.js';

export interface ExecuteRunOptions {
  config: FerryConfig;
  logger: Logger;
  pipeline: string;
  source?: SourceSpec;
  sourceName?: string;
  allowDeletes?: AllowDeletes;
  /** Sends the plan a run the value guards stopped, once (guards/allow-guard.ts). */
  allowGuard?: AllowGuard;
  /** After Redis lost its data: send everything the plan holds (see epoch/data-loss-guard.ts). */
  resendAll?: boolean;
  /** Lookup name -> a file to read instead (`--lookup NAME=PATH`). */
  lookupFiles?: Readonly<Record<string, string>>;
  lane?: Lane;
  /** A repair's run (reconciliation); default sync. */
  kind?: 'sync' | 'repair';
  wait: boolean;
  /** With `wait`: run a worker in this process (default true). */
  localWorker?: boolean;
  /** Progress goes here (stderr). */
  progress?: Writable;
  signal?: AbortSignal;
  /** Called once the run is planned, recorded and its first stage released (bench/delivery.ts
   * splits planning's CPU from delivery's there). */
  onStarted?: (runId: string) => void;
}

/** How long a detaching `ferry run --wait` lets its worker's jobs in flight finish. */
const DETACH_CLOSE_MS = 500;

/** How soon a waiting `ferry run` notices that Redis lost its data. */
const EPOCH_CHECK_MS = 1_000;

interface Followed {
  redis: RedisClient;
  keys: DeliveryKeys;
  runId: string;
  epoch: EpochWatcher;
  /** Aborted by the watcher when it notices a loss. */
  lost: AbortSignal;
}

/** Follows the run; a loss of Redis's data noticed meanwhile ends it with RedisDataLostError. */
async function followUnlessDataLost(
  f: Followed,
  onUpdate: (run: RunRecord) => void,
  signal?: AbortSignal,
): Promise<RunRecord> {
  const stop = signal ? AbortSignal.any([signal, f.lost]) : f.lost;
  let run: RunRecord;
  try {
    run = await followRun(f.redis, f.keys, f.runId, onUpdate, stop);
  } catch (error) {
    // A run's record vanishing is no mystery when Redis lost its data.
    if (error instanceof NotFoundError && (f.lost.aborted || (await f.epoch.check()))) {
      throw new RedisDataLostError(f.runId);
    }
    throw error;
  }
  if (f.lost.aborted) throw new RedisDataLostError(f.runId);
  return run;
}

export async function executeRun(options: ExecuteRunOptions): Promise<RunReport> {
  const { config, logger } = options;
  const redis = await connectDelivery(
    config.redis,
    "a run's state, record and queued jobs are kept there",
  );
  const keys = deliveryKeys(config.redis.prefix);
  const dlq = createDeadLetterStore(redis, keys);
  let worker: DeliveryWorker | undefined;
  // Noticed while following: the run's record vanishing is then no mystery but a lost Redis.
  const lost = new AbortController();
  const epoch = await watchEpoch(redis, keys, EPOCH_CHECK_MS, () => lost.abort());
  try {
    if (options.wait && options.localWorker !== false) {
      worker = await startDeliveryWorker({ config, logger });
    }
    const started = await startRun({
      config,
      redis,
      logger,
      pipeline: options.pipeline,
      ...(options.source ? { source: options.source } : {}),
      ...(options.sourceName ? { sourceName: options.sourceName } : {}),
      ...(options.allowDeletes !== undefined ? { allowDeletes: options.allowDeletes } : {}),
      ...(options.allowGuard ? { allowGuard: options.allowGuard } : {}),
      ...(options.resendAll ? { resendAll: true } : {}),
      ...(options.lookupFiles ? { lookupFiles: options.lookupFiles } : {}),
      ...(options.lane ? { lane: options.lane } : {}),
      ...(options.kind ? { kind: options.kind } : {}),
      ...(options.progress
        ? {
            onProgress: ({ phase, rows, errors }) => {
              if (phase === 'reading')
                options.progress?.write(`planned ${rows} rows (${errors} rejected)...\n`);
            },
          }
        : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    }).catch((error: unknown) => {
      if (options.signal?.aborted) throw new RunInterruptedError(options.pipeline);
      throw error;
    });
    options.onStarted?.(started.runId);
    if (!options.wait) return await buildRunReport(redis, keys, dlq, started.runId);
    const display = options.progress ? progressDisplay(options.progress) : undefined;
    const run = await followUnlessDataLost(
      { redis, keys, runId: started.runId, epoch, lost: lost.signal },
      (r) => display?.update(r),
      options.signal,
    ).finally(() => display?.end());
    if (!isFinished(run)) return await buildRunReport(redis, keys, dlq, started.runId);
    return await finishRun(redis, keys, dlq, started.runId, config.delivery.reportsDir);
  } finally {
    epoch.stop();
    // Stopped by a signal: detach at once, leaving jobs in flight to the other workers.
    await worker?.close(options.signal?.aborted ? DETACH_CLOSE_MS : undefined);
    await redis.quit();
  }
}
