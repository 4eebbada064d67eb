/**
 * `ferry run` end to end: start the run, and with `wait` follow it to its end (with an in-process
 * worker unless `localWorker` is false, so `--wait` needs nothing else running), then write and
 * return its report. Without `wait` the run is left to `ferry worker` processes.
 */
import type { Writable } from 'node:stream';
import type { FerryConfig } from '../../config/schema.js';
import type { Logger } from '../../logging/logger.js';
import type { AllowDeletes } from '../../pipeline/plan-pipeline.js';
import type { SourceSpec } from '../../pipeline/source/read-records.js';
import { connectDelivery } from '../connect.js';
import { createDeadLetterStore } from '../dlq/dead-letter-store.js';
import { deliveryKeys, type Lane } from '../keys.js';
import { startDeliveryWorker, type DeliveryWorker } from '../worker/delivery-worker.js';
import { finishRun } from './finish-run.js';
import { followRun } from './follow-run.js';
import { progressDisplay } from './progress.js';
import { isFinished } from './run-record.js';
import { buildRunReport, type RunReport } from './run-report.js';
import { startRun } from './start-run.js';

export interface ExecuteRunOptions {
  config: FerryConfig;
  logger: Logger;
  pipeline: string;
  source?: SourceSpec;
  sourceName?: string;
  allowDeletes?: AllowDeletes;
  lane?: Lane;
  wait: boolean;
  /** With `wait`: run a worker in this process (default true). */
  localWorker?: boolean;
  /** Progress goes here (stderr). */
  progress?: Writable;
  signal?: AbortSignal;
}

export async function executeRun(options: ExecuteRunOptions): Promise<RunReport> {
  const { config, logger } = options;
  const redis = await connectDelivery(config.redis.url);
  const keys = deliveryKeys(config.redis.prefix);
  const dlq = createDeadLetterStore(redis, keys);
  let worker: DeliveryWorker | undefined;
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
      ...(options.lane ? { lane: options.lane } : {}),
      ...(options.progress
        ? {
            onProgress: ({ phase, rows, errors }) => {
              if (phase === 'reading')
                options.progress?.write(`planned ${rows} rows (${errors} rejected)...\n`);
            },
          }
        : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!options.wait) return await buildRunReport(redis, keys, dlq, started.runId);
    const display = options.progress ? progressDisplay(options.progress) : undefined;
    const run = await followRun(
      redis,
      keys,
      started.runId,
      (r) => display?.update(r),
      options.signal,
    );
    display?.end();
    if (!isFinished(run)) return await buildRunReport(redis, keys, dlq, started.runId);
    return await finishRun(redis, keys, dlq, started.runId, config.delivery.reportsDir);
  } finally {
    await worker?.close();
    await redis.quit();
  }
}
