/** Shared set-up of the delivery tests: a config against a simulator, a logger, a temp folder. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect } from 'vitest';
import { configSchema, type FerryConfig } from '../../src/config/schema.js';
import {
  startRun,
  type StartedRun,
  type StartRunOptions,
} from '../../src/orchestrate/start-run.js';
import type { Plan } from '../../src/pipeline/types.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { followRun } from '../../src/runs/follow-run.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import type { RunRecord } from '../../src/runs/run-record.js';
import { createLogger, type Logger } from '../../src/logging/logger.js';
import type { SimulatorOptions } from '../../src/simulator/types.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

export interface DeliveryOverrides {
  concurrency?: number;
  attempts?: number;
  ratePerSecond?: number;
  retryBudget?: number;
  bundleSize?: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  maxStalledCount?: number;
  shutdownTimeoutMs?: number;
  progressEveryMs?: number;
}

export function testConfig(
  prefix: string,
  baseUrl: string,
  reportsDir: string,
  delivery: DeliveryOverrides = {},
): FerryConfig {
  return configSchema.parse({
    redis: { url: TEST_REDIS_URL, prefix },
    interface: {
      baseUrl,
      auth: { type: 'bearer', token: 'dev-token' },
      retryAfterCapMs: 5_000,
      timeouts: { connectMs: 2_000, headersMs: 5_000, bodyMs: 5_000 },
    },
    delivery: {
      concurrency: 4,
      attempts: 10,
      backoff: { baseMs: 20, capMs: 200 },
      shutdownTimeoutMs: 5_000,
      reportsDir,
      ...delivery,
    },
    log: { level: 'silent' },
  });
}

export function quietLogger(): Logger {
  return createLogger({ level: process.env.FERRY_TEST_LOG ?? 'silent', format: 'json' });
}

export function tempDir(label: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `ferry-${label}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A test file's own simulator, Redis connection, key prefix and temp folder. */
export interface DeliveryHarness {
  readonly prefix: string;
  readonly dir: string;
  /** Started before the file's tests. */
  readonly sim: RunningSimulator;
  readonly redis: Redis;
}

/**
 * Sets up a test file's delivery harness (a simulator over TCP on a port of its own, a Redis
 * connection, a unique key prefix, a temp folder; `prepare` runs once they exist) and removes it
 * all after the file's tests, checking that they left nothing open.
 */
export function useDeliveryHarness(
  label: string,
  simulator: Omit<SimulatorOptions, 'port'>,
  prepare?: (h: DeliveryHarness) => Promise<unknown>,
): DeliveryHarness {
  const prefix = uniquePrefix(label);
  const dir = tempDir(label);
  let sim: RunningSimulator | undefined;
  let redis: Redis | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the delivery harness starts in beforeAll');
    return value;
  };
  const h: DeliveryHarness = {
    prefix,
    dir: dir.path,
    get sim() {
      return started(sim);
    },
    get redis() {
      return started(redis);
    },
  };
  beforeAll(async () => {
    sim = await startSimulator({ ...simulator, port: 0 });
    redis = new Redis(TEST_REDIS_URL);
    await prepare?.(h);
  });
  afterAll(async () => {
    await sim?.close();
    redis?.disconnect();
    await deleteKeys(prefix);
    dir.remove();
    await expectNothingOpen();
  });
  return h;
}

/**
 * Asserts that the test left no socket or server open (workers, queues, Redis connections,
 * simulators, HTTP pools): call it last in afterAll, after closing them.
 */
export async function expectNothingOpen(): Promise<void> {
  const open = (): string[] =>
    process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap' || r === 'TCPServerWrap');
  for (let i = 0; i < 40 && open().length > 0; i += 1) await new Promise((r) => setTimeout(r, 25));
  if (open().length > 0) throw new Error(`left open: ${open().join(', ')}`);
}

/**
 * Asserts that a run delivered every planned item of each of its operations, and that the
 * simulator applied none twice.
 */
export function expectAllDeliveredOnce(
  operations: Record<string, { planned: number; delivered: number }>,
  sim: { stats(): { duplicates: number } },
): void {
  expect(Object.keys(operations).length).toBeGreaterThan(0);
  for (const [id, counts] of Object.entries(operations)) {
    expect(counts.delivered, id).toBe(counts.planned);
  }
  expect(sim.stats().duplicates).toBe(0);
}

/** Starts the catalog pipeline on `file` (`allowDeletes` as `--allow-deletes`). */
export function startCatalog(
  redis: Redis,
  config: FerryConfig,
  file: string,
  options: Pick<StartRunOptions, 'allowDeletes'> = {},
): Promise<StartedRun> {
  return startRun({
    config,
    redis,
    logger: quietLogger(),
    pipeline: 'catalog',
    source: { file },
    ...options,
  });
}

/** Follows run `runId` to its end with a worker of its own, closed after. */
export async function followWithWorker(
  redis: Redis,
  config: FerryConfig,
  runId: string,
): Promise<RunRecord> {
  const worker = await startDeliveryWorker({ config, logger: quietLogger() });
  try {
    return await followRun(redis, deliveryKeys(config.redis.prefix), runId, () => undefined);
  } finally {
    await worker.close();
  }
}

/** Runs the catalog pipeline on `file` (a worker must run) and follows the run to its end. */
export async function runCatalog(
  redis: Redis,
  config: FerryConfig,
  file: string,
): Promise<RunRecord> {
  const { runId } = await startCatalog(redis, config, file);
  return followRun(redis, deliveryKeys(config.redis.prefix), runId, () => undefined);
}

/**
 * Runs the catalog pipeline on `file` with a worker of its own to its end, every planned item
 * checked delivered: its plan, and its record when it had anything to send.
 */
export async function deliverCatalog(
  redis: Redis,
  config: FerryConfig,
  file: string,
): Promise<{ plan: Plan; run?: RunRecord }> {
  const started = await startCatalog(redis, config, file);
  if (!started.enqueued) return { plan: started.plan };
  const run = await followWithWorker(redis, config, started.runId);
  for (const [id, c] of Object.entries(run.operations)) expect(c.delivered, id).toBe(c.planned);
  return { plan: started.plan, run };
}
