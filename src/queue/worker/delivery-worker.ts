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
import {
  DEFAULT_PLATFORM,
  type FerryConfig,
  platformConcurrency,
  platformConfig,
  platformNames,
  platformOf,
  splitPipelineName,
} from '../../config/index.js';
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
  platformKeys,
} from '../../runs/index.js';
import { openQueues } from '../queues.js';
import { createBreaker } from './breaker.js';
import type { DeliveryDeps } from './delivery-deps.js';
import { handBack, processJob } from './process-job.js';
import { inJobSpan } from './job-span.js';
import { createRateGate, type RateGate } from './rate-gate.js';
import { createRunContracts, type RunContracts } from './run-contracts.js';
import { startSupervisor } from './supervisor.js';

const SUPERVISE_MS = 2_000;
/** How often a closing worker looks whether its jobs in flight have ended. */
const IDLE_POLL_MS = 20;

/** How soon a worker notices that Redis lost its data (one HGET a tick). */
const EPOCH_CHECK_MS = 2_000;

/**
 * Several platforms (docs/PLATFORMS.md): a request whose platform's rate would keep it waiting
 * longer than this hands its job back, and a job of a platform at its share of this process's
 * slots goes back for this long, so a slow or limited platform never holds the slots.
 */
const YIELD_AFTER_MS = 250;
const CAP_RECHECK_MS = 250;
/** A platform whose job this process took this recently counts as one with work. */
const OTHERS_SEEN_MS = 2_000;

/** What a worker process holds per platform, and the jobs of it running now. */
interface PlatformDelivery {
  name: string;
  deps: DeliveryDeps;
  contracts: RunContracts;
  /** delivery.concurrency, or the platform's own `delivery.concurrency` when lower (per lane). */
  cap: number;
  /** Its jobs running now in this process, per lane. */
  active: Record<Lane, number>;
}

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
  const given = options.config;
  const delivery = given.delivery;
  const concurrency = options.concurrency ?? delivery.concurrency;
  const lanes = options.lanes ?? LANES;
  const keys = deliveryKeys(given.redis.prefix);
  const redis = createRedis(given.redis);
  await warnIfEvicting(redis, logger);
  const clients: InterfaceClient[] = [];
  const clientFor = (c: FerryConfig): InterfaceClient => {
    const client = createInterfaceClient(c.interface, {
      logger,
      connections: concurrency * lanes.length,
      onAnswer: (operationId, status, seconds) =>
        requestMetrics.record(operationId, status, seconds, platformOf(c)),
      platform: platformOf(c),
    });
    clients.push(client);
    return client;
  };
  const gates: RateGate[] = [];
  const requestMetrics = startRequestMetrics(redis, keys.metrics);
  const sent = startRunRequestCounter(redis, keys);
  const stopping = new AbortController();
  const draining = new AbortController();
  const names = platformNames(given);
  const several = names.length > 1;
  /** Each platform's client, gate, bindings and description (config/platforms.ts). */
  const onPlatform = async (name: string): Promise<PlatformDelivery> => {
    const scoped = platformConfig(given, name);
    // Bodies are shaped by the contract's bindings: the platform's pinned description (else the
    // live one) as read now; each run's jobs go by the one it was planned by (run-contracts.ts).
    const config = await contractedConfig(scoped, redis, keys);
    const gate = createRateGate(redis, platformKeys(keys, name), {
      ratePerSecond: config.delivery.ratePerSecond,
      bulkShare: config.delivery.bulkShare,
    });
    gates.push(gate);
    const deps: DeliveryDeps = {
      ...common,
      config,
      platform: platformUrl(config.interface),
      client: clientFor(config),
      bindings: resolveBindings(config.interface.bindings),
      gate,
      ...(several ? { yieldAfterMs: YIELD_AFTER_MS } : {}),
    };
    const contracts = createRunContracts({ deps, given: scoped, clientFor, logger });
    return {
      name,
      deps,
      contracts,
      cap: platformConcurrency(given, name),
      active: { bulk: 0, interactive: 0 },
    };
  };
  const common = {
    redis,
    keys,
    state: createStateStore(redis, given.redis.prefix),
    history: createPayloadHistory(redis, given.redis.prefix, given.undo.retentionDays),
    refusals: createRefusalLog(redis, given.redis.prefix),
    dlq: createDeadLetterStore(redis, keys),
    queues: openQueues(redis, keys),
    logger,
    sent,
    breaker: createBreaker(redis, keys, delivery.breaker),
    onBlocked: async (runId: string) => {
      const run = parseRun(await redis.hgetall(keys.run(runId)));
      if (run) await notifyRunBlocked({ config: given, redis, keys, logger }, run);
    },
    stopping: stopping.signal,
    draining: draining.signal,
    onRunFinished: async (runId: string) => {
      const report = await finishRun(redis, keys, common.dlq, runId, delivery.reportsDir);
      logger.info({ runId, status: report.status, report: report.files?.json }, 'run finished');
      const run = parseRun(await redis.hgetall(keys.run(runId)));
      if (run) await notifyRunEnded({ config: given, redis, keys, logger }, run);
    },
  };
  const platforms = new Map<string, Promise<PlatformDelivery>>();
  const platformOfJob = (name: string): Promise<PlatformDelivery> => {
    let found = platforms.get(name);
    if (!found) {
      found = onPlatform(name);
      // A description that could not be read is read again by the job's retry.
      found.catch(() => platforms.delete(name));
      platforms.set(name, found);
    }
    return found;
  };
  // The default platform's at start, as always (a bad description stops the worker here); the
  // others' too, but a platform whose description cannot be read now only fails its own jobs.
  const home = await platformOfJob(DEFAULT_PLATFORM);
  const deps = home.deps;
  for (const name of names.slice(1)) {
    platformOfJob(name).catch((error: unknown) =>
      logger.error(
        { platform: name, err: error },
        "this platform's description cannot be read: its jobs wait and retry",
      ),
    );
  }
  /** A job of a platform this worker's config does not declare: it blocks, naming the platform. */
  const unknownPlatform = (name: string): PlatformDelivery => ({
    ...home,
    name,
    deps: { ...deps, platform: `no platform "${name}" (this worker's config does not declare it)` },
    contracts: async () => ({
      ...deps,
      platform: `no platform "${name}" (this worker's config does not declare it)`,
    }),
    active: { bulk: 0, interactive: 0 },
  });
  /** When this process last took a job of each platform (a slot is kept for those with work). */
  const seen = new Map<string, number>();
  let active = 0;
  const workers = lanes.map((lane) => {
    const worker = new Worker<DeliveryJobData>(
      queueName(lane),
      async (job, token) => {
        const name = splitPipelineName(job.data.pipeline).platform;
        const mine = names.includes(name) ? await platformOfJob(name) : unknownPlatform(name);
        // A platform at its own share of this process's slots leaves the rest to the others:
        // its `delivery.concurrency`, less a slot for each other platform with work lately.
        if (several) {
          const now = Date.now();
          const others = [...platforms.keys()].filter((n) => n !== name);
          const waiting = others.filter((n) => now - (seen.get(n) ?? 0) < OTHERS_SEEN_MS).length;
          seen.set(name, now);
          const share = Math.max(1, Math.min(mine.cap, concurrency - waiting));
          if (mine.active[lane] >= share) return await handBack(job, token, CAP_RECHECK_MS);
        }
        active += 1;
        mine.active[lane] += 1;
        try {
          const jobDeps = mine.deps.config.interface.openapi
            ? await mine.contracts(job.data.runId)
            : mine.deps;
          await inJobSpan(job, lane, mine.deps.platform, () => processJob(job, jobDeps, token));
        } finally {
          active -= 1;
          mine.active[lane] -= 1;
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
  logger.info({ lanes, concurrency, platforms: names }, 'delivery worker started');

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
      for (const gate of gates) gate.close();
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
