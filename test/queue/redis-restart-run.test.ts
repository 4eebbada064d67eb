/**
 * Redis restarted (with its data) at several points of `ferry run --wait`: while the run is
 * planned, recorded, released or followed. Each time the run either ends delivered, or stops with
 * FERRY_REDIS_UNAVAILABLE (exit code 5) naming the run, which is recorded as failed with where it
 * stopped and leaves the pipeline free; never an uncoded crash, and the simulator never applies
 * a write twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { hasCode } from '../../src/errors/index.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { executeRun } from '../../src/orchestrate/execute-run.js';
import { parseRun } from '../../src/runs/run-record.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { startRedisServer, type PrivateRedis } from '../helpers/redis-server.js';
import { uniquePrefix } from '../helpers/redis.js';
import { quietLogger, tempDir, testConfig } from './delivery-fixtures.js';

const dir = tempDir('redis-restart');
const data = mkdtempSync(join(tmpdir(), 'ferry-restart-data-'));
const PERSIST = ['--appendonly', 'yes', '--appendfsync', 'always'];
const items = join(dir.path, 'items.csv');
let sim: RunningSimulator;
let server: PrivateRedis | undefined;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 17 });
  await generateItems(1_500, items, 9);
  server = await startRedisServer(PERSIST, undefined, data);
});

afterAll(async () => {
  await server?.stop();
  await sim.close();
  rmSync(data, { recursive: true, force: true });
  dir.remove();
});

async function restart(): Promise<void> {
  const port = server!.port;
  await server!.stop();
  server = await startRedisServer(PERSIST, port, data);
}

/** Restarts Redis `delayMs` after the run started (as soon as it planned, with -1). */
it.each([0, 150, 500, 1_200])(
  'survives a restart %i ms into the run: delivered, or stopped with exit 5 and recorded',
  async (delayMs) => {
    const prefix = uniquePrefix('restart');
    // A job whose lock lapsed while Redis was down is taken up again once its lock expires and
    // the next stalled check comes: seconds here, not BullMQ's 30 + 15 s of the defaults.
    const config = testConfig(prefix, sim.url, join(dir.path, 'reports'), {
      bundleSize: 20,
      lockDurationMs: 2000,
      stalledIntervalMs: 1000,
    });
    config.redis.url = server!.url;
    const run = executeRun({
      config,
      logger: quietLogger(),
      pipeline: 'catalog',
      source: { file: items },
      wait: true,
    });
    const restarted = new Promise((r) => setTimeout(r, delayMs)).then(restart);
    const outcome = await run.then(
      (report) => ({ report }),
      (error: unknown) => ({ error }),
    );
    await restarted;

    const redis = new Redis(server!.url);
    try {
      const keys = deliveryKeys(prefix);
      if ('error' in outcome) {
        // Coded, with the run it stopped; never "unexpected error: AbortError".
        expect(hasCode(outcome.error, 'FERRY_REDIS_UNAVAILABLE'), String(outcome.error)).toBe(true);
        const error = outcome.error as {
          exitCode: number;
          details: { runId?: string; phase?: string };
        };
        expect(error.exitCode).toBe(5);
        const runId = error.details.runId;
        if (runId === undefined) {
          // Down before the run began (its check at start): no run, nothing to record.
          expect(String(outcome.error)).toContain(
            "a run's state, record and queued jobs are kept there",
          );
        } else {
          expect(runId).toMatch(/^catalog-/);
          const record = parseRun(await redis.hgetall(keys.run(runId)));
          expect(record).toMatchObject({ status: 'failed' });
          expect(record!.reason).toMatch(
            /^Redis stopped answering while it was (planned|recorded)/,
          );
          expect(await redis.sismember(keys.activeRuns, runId)).toBe(0);
        }
        expect(await redis.get(keys.activeRun('catalog'))).toBeNull();
      } else {
        // partial: the generated file holds a few rejectable rows; every planned item delivered.
        expect(['succeeded', 'partial']).toContain(outcome.report.status);
        for (const [id, counts] of Object.entries(outcome.report.operations)) {
          expect(counts.delivered, id).toBe(counts.planned);
        }
      }
      // Whatever happened, a later run completes the catalog, and nothing was applied twice.
      const again = await executeRun({
        config,
        logger: quietLogger(),
        pipeline: 'catalog',
        source: { file: items },
        wait: true,
      });
      expect(['succeeded', 'partial']).toContain(again.status);
      for (const [id, counts] of Object.entries(again.operations)) {
        expect(counts.delivered, id).toBe(counts.planned);
      }
      expect(sim.stats().duplicates).toBe(0);
    } finally {
      redis.disconnect();
    }
  },
  180_000,
);
