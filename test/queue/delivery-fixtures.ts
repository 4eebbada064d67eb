/** Shared set-up of the delivery tests: a config against a simulator, a logger, a temp folder. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema, type FerryConfig } from '../../src/config/schema.js';
import { createLogger, type Logger } from '../../src/logging/logger.js';
import { expect } from 'vitest';
import { TEST_REDIS_URL } from '../helpers/redis.js';

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
