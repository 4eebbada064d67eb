/**
 * A delivery worker process's machinery: one BullMQ Worker per lane, the HTTP client (a pool of
 * as many sockets as jobs can run at once), the shared rate gate and the supervisor. Several
 * processes (`ferry worker`, or the in-process worker of `ferry run --wait`) share the work.
 *
 * A job's lock lasts delivery.lockDurationMs and is renewed while it runs; when its process dies,
 * the lock expires and the next stalled check (every delivery.stalledIntervalMs, by any worker)
 * puts the job back in the queue, so a killed worker's jobs restart within about
 * lockDurationMs + stalledIntervalMs. Restarting is safe: committed items are not sent again and
 * the rest go with the same idempotency keys.
 */
import { onWorkerError, createRedis, warnIfEvicting } from '../../redis/index.js';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'bullmq';
import type { FerryConfig } from '../../config/index.js';
import {
  resolveBindings,
  createInterfaceClient,
  backoffDelay,
  type InterfaceClient,
} from '../../interface/index.js';
import type { Logger } from '../../logging/index.js';
import {
  createPayloadHistory,
  createRefusalLog,
  createStateStore,
  platformUrl,
} from '../../state/index.js';
import {
  createDeadLetterStore,
  DeliveryDeferredError,
  type DeliveryJobData,
  LANES,
  deliveryKeys,
  queueName,
  type Lane,
  watchEpoch,
  finishRun,
  startRequestMetrics,
  startRunRequestCounter,
  notifyRunBlocked,
  notifyRunEnded,
  parseRun,
  contractedConfig,
} from '../../runs/index.js';
import { openQueues } from '../queues.js';
import { createBreaker } from './breaker.js';
import type { DeliveryDeps } from './delivery-deps.js';
import { processJob } from './process-job.js';
import { inJobSpan } from './job-span.js';
import { createRateGate } from './rate-gate.js';
import { createRunContracts } from './run-contracts.js';
import { startSupervisor } from './supervisor.js';

const SUPERVISE_MS = 2_000;
/** How often a closing worker looks whether its jobs in flight have ended. */
const IDLE_POLL_MS = 20;

/** How soon a worker notices that Redis lost its data (one HGET a tick). */
const EPOCH_CHECK_MS = 2_000;

export interface DeliveryWorkerOptions {
  config: FerryConfig;
  logger: Logger;
  /** Jobs each lane runs at once (default delivery.concurrency). */
  concurrency?: number;
  lanes?: readonly Lane[];
}

export interface DeliveryWorker {
  /**
   * Stops taking jobs; an active job hands the rest of its requests back to the queue once the
   * request it has out is answered (process-job.ts), within `timeoutMs` (default
   * delivery.shutdownTimeoutMs); jobs still running then are left to the stalled check of other
   * workers. Resolves to whether every active job ended in time.
   */
  close(timeoutMs?: number): Promise<boolean>;
  /** Jobs running now. */
  active(): number;
}

export async function startDeliveryWorker(options: DeliveryWorkerOptions): Promise<DeliveryWorker> {
  const { logger } = options;
  const delivery = options.config.delivery;
  const concurrency = options.concurrency ?? delivery.concurrency;
  const lanes = options.lanes ?? LANES;
  const keys = deliveryKeys(options.config.redis.prefix);
  const redis = createRedis(options.config.redis);
  await warnIfEvicting(redis, logger);
  // Bodies are shaped by the contract's bindings: the worker's own are the pinned description's
  // (else the live one's) as read now; each run's jobs go by the one it was planned by.
  const config = await contractedConfig(options.config, redis, keys);
  const clients: InterfaceClient[] = [];
  const clientFor = (c: FerryConfig): InterfaceClient => {
    const client = createInterfaceClient(c.interface, {
      logger,
      connections: concurrency * lanes.length,
      onAnswer: (operationId, status, seconds) =>
        requestMetrics.record(operationId, status, seconds),
    });
    clients.push(client);
    return client;
  };
  const gate = createRateGate(redis, keys, {
    ratePerSecond: delivery.ratePerSecond,
    bulkShare: delivery.bulkShare,
  });
  const requestMetrics = startRequestMetrics(redis, keys.metrics);
  const sent = startRunRequestCounter(redis, keys);
  const stopping = new AbortController();
  const draining = new AbortController();
  const deps: DeliveryDeps = {
    redis,
    keys,
    config,
    platform: platformUrl(config.interface),
    client: clientFor(config),
    bindings: resolveBindings(config.interface.bindings),
    gate,
    state: createStateStore(redis, config.redis.prefix),
    history: createPayloadHistory(redis, config.redis.prefix, config.undo.retentionDays),
    refusals: createRefusalLog(redis, config.redis.prefix),
    dlq: createDeadLetterStore(redis, keys),
    queues: openQueues(redis, keys),
    logger,
    sent,
    breaker: createBreaker(redis, keys, delivery.breaker),
    onBlocked: async (runId) => {
      const run = parseRun(await redis.hgetall(keys.run(runId)));
      if (run) await notifyRunBlocked({ config, redis, keys, logger }, run);
    },
    stopping: stopping.signal,
    draining: draining.signal,
    onRunFinished: async (runId) => {
      const report = await finishRun(redis, keys, deps.dlq, runId, delivery.reportsDir);
      logger.info({ runId, status: report.status, report: report.files?.json }, 'run finished');
      const run = parseRun(await redis.hgetall(keys.run(runId)));
      if (run) await notifyRunEnded({ config, redis, keys, logger }, run);
    },
  };
  const contracts = createRunContracts({ deps, given: options.config, clientFor, logger });
  let active = 0;
  const platform = platformUrl(config.interface);
  const workers = lanes.map((lane) => {
    const worker = new Worker<DeliveryJobData>(
      queueName(lane),
      async (job, token) => {
        active += 1;
        try {
          const jobDeps = config.interface.openapi ? await contracts(job.data.runId) : deps;
          await inJobSpan(job, lane, platform, () => processJob(job, jobDeps, token));
        } finally {
          active -= 1;
        }
      },
      {
        // Shown as a job's processedBy: which process has it.
        name: `${hostname()}:${process.pid}`,
        connection: redis,
        prefix: keys.bullPrefix,
        concurrency,
        lockDuration: delivery.lockDurationMs,
        stalledInterval: delivery.stalledIntervalMs,
        maxStalledCount: delivery.maxStalledCount,
        settings: {
          backoffStrategy: (attemptsMade) => backoffDelay(attemptsMade, delivery.backoff),
        },
      },
    );
    worker.on('failed', (job, error) => {
      const deferred = error instanceof DeliveryDeferredError;
      logger[deferred ? 'debug' : 'warn'](
        {
          lane,
          jobId: job?.id,
          attemptsMade: job?.attemptsMade,
          err: deferred ? undefined : error,
        },
        deferred ? error.message : 'delivery job failed; it will be retried',
      );
    });
    worker.on('error', onWorkerError(logger, 'delivery worker error', { lane }));
    return worker;
  });
  const supervisor = startSupervisor(deps, SUPERVISE_MS);
  const epoch = await watchEpoch(redis, keys, EPOCH_CHECK_MS, ({ lost, epoch: now }) =>
    logger.error(
      {
        lostEpoch: lost.id,
        lostEpochCreatedAt: new Date(lost.createdAt).toISOString(),
        epoch: now.id,
      },
      'REDIS LOST ITS DATA: it was restarted empty, failed over to an empty replica or flushed. ' +
        'Runs in progress, queued jobs, dead letters and sync state are gone. The next run of each ' +
        'pipeline stops before resending its catalog and says the ways out; see `ferry status`.',
    ),
  );
  logger.info({ lanes, concurrency }, 'delivery worker started');

  return {
    active: () => active,
    async close(timeoutMs = delivery.shutdownTimeoutMs) {
      draining.abort();
      epoch.stop();
      await supervisor.stop();
      // Pause first: BullMQ's close() remembers its first call, so a graceful close() that timed
      // out could not be forced any more, and the shutdown timeout would not hold.
      await Promise.all(workers.map((w) => w.pause(true)));
      const drained = await idleWithin(() => active === 0, timeoutMs);
      if (!drained) {
        logger.warn({ active }, 'shutdown timeout: leaving active jobs to the other workers');
      }
      // Forced either way: the jobs this process holds have ended or are left to others, and a
      // graceful close() of a worker paused while it was still starting can wait for ever.
      await Promise.all(workers.map((w) => w.close(true)));
      gate.close();
      // Past the timeout, requests still in flight are abandoned, and their jobs left to another
      // worker, which sends them again under the same idempotency keys.
      if (!drained) stopping.abort();
      await Promise.all(clients.map((c) => c.close(!drained)));
      await requestMetrics.close();
      await sent.close();
      await deps.queues.close();
      await redis.quit();
      return drained;
    },
  };
}

/** Waits until `isIdle()` holds, or `ms` passed; tells which. */
async function idleWithin(isIdle: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!isIdle()) {
    if (Date.now() >= deadline) return false;
    await sleep(IDLE_POLL_MS);
  }
  return true;
}
