/**
 * Counts that add up, over random run histories (seeded, a bounded number of cases) on a real
 * Redis, through the scripts that write the counts: jobs settled after retries that carry what
 * their earlier attempts did (bisection leaves a job's items split between outcomes the same
 * way), settled twice (a worker died after settling), sync runs and replays, runs cancelled
 * mid-way with jobs not released yet and jobs in flight. After every step, per operation,
 * delivered + failed + stale + cancelled <= planned (unchanged items apart); at the end they are
 * equal, the run ended, and the last-success gauge was set by a sync run that settled every
 * planned item only.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToTally, type JobRequest, type Tally } from '../../src/runs/job-data.js';
import { encodeJobPayload } from '../../src/runs/job-payload-codec.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { lastSuccessField } from '../../src/runs/metrics/metric-fields.js';
import { openQueues } from '../../src/queue/queues.js';
import { advanceCancel } from '../../src/queue/cancel-run.js';
import { itemTotals, parseRun, settledCount } from '../../src/runs/run-record.js';
import { settleJob } from '../../src/runs/settle-job.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const CASES = 30;
const OPS = ['products.put', 'products.prices.patch', 'categories.put'];
const OUTCOMES = ['delivered', 'failed', 'stale'] as const;

/** mulberry32: a small seeded PRNG, so a failing case can be run again. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface PlannedJob {
  id: string;
  stage: number;
  requests: JobRequest[];
}

const prefix = uniquePrefix('run-counts');
const keys = deliveryKeys(prefix);
let redis: Redis;
beforeAll(() => {
  redis = new Redis(TEST_REDIS_URL);
});
afterAll(async () => {
  redis.disconnect();
  await deleteKeys(prefix);
});

async function expectCountsHold(runId: string, end: boolean): Promise<void> {
  const run = parseRun(await redis.hgetall(keys.run(runId)));
  if (!run) throw new Error(`no run ${runId}`);
  for (const [op, c] of Object.entries(run.operations)) {
    expect(settledCount(c), `${runId} ${op}`).toBeLessThanOrEqual(c.planned);
    if (end) expect(settledCount(c), `${runId} ${op} at the end`).toBe(c.planned);
  }
}

describe('run counts over random histories', () => {
  it(`settled = delivered + failed + stale + cancelled <= planned in ${CASES} seeded cases`, async () => {
    const queues = openQueues(redis, keys);
    try {
      for (let seed = 1; seed <= CASES; seed += 1) {
        const rand = prng(seed);
        const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
        const pipeline = `p${seed}`;
        const runId = `${pipeline}-run`;
        const kind = rand() < 0.3 ? 'replay' : 'sync';
        const stageCount = 1 + Math.floor(rand() * 3);
        const jobs: PlannedJob[] = [];
        const fields: Record<string, string | number> = {
          id: runId,
          pipeline,
          kind,
          lane: 'bulk',
          status: 'running',
          trigger: kind === 'replay' ? 'replay' : 'cli',
          version: 1,
          rows: 0,
          rejected: rand() < 0.3 ? 1 : 0,
          createdAt: Date.now(),
          stageCount,
          currentStage: 0,
          releasedStage: 0,
        };
        const planned: Record<string, number> = {};
        const stages = [];
        for (let s = 0; s < stageCount; s += 1) {
          const n = 1 + Math.floor(rand() * 5);
          for (let j = 0; j < n; j += 1) {
            const requests = Array.from({ length: 1 + Math.floor(rand() * 3) }, (_, r) => {
              const operationId = pick(OPS);
              const items = Array.from({ length: 1 + Math.floor(rand() * 5) }, (_, i) => ({
                resource: 'products',
                key: `k${s}-${j}-${r}-${i}`,
                kind: 'upsert' as const,
                hash: 'h',
                version: 1,
                baseVersion: 0,
              }));
              planned[operationId] = (planned[operationId] ?? 0) + items.length;
              return {
                operationId,
                pathParams: {},
                idempotencyKey: `${runId}-${s}-${j}-${r}`,
                items,
                payloadsJson: JSON.stringify(items.map(() => ({}))),
              };
            });
            jobs.push({ id: `${runId}-j${s}-${j}`, stage: s, requests });
          }
          fields[`pending:${s}`] = n;
          stages.push({ index: s, operationIds: OPS, jobs: n, requests: 0 });
        }
        fields.stages = JSON.stringify(stages);
        for (const [op, n] of Object.entries(planned)) fields[`op:${op}:planned`] = n;
        // Unchanged entities: counted apart, never settled.
        fields[`op:${OPS[0]}:skipped`] = Math.floor(rand() * 50);
        const multi = redis.multi().hset(keys.run(runId), fields).sadd(keys.activeRuns, runId);
        for (const job of jobs) {
          multi.hset(keys.runPayloads(runId), job.id, encodeJobPayload({ requests: job.requests }));
          // Later stages wait in their lists, as the releaser leaves them.
          if (job.stage > 0) multi.rpush(keys.runStage(runId, job.stage), job.id);
        }
        await multi.exec();

        const cancelAfter = rand() < 0.4 ? Math.floor(rand() * jobs.length) : -1;
        let cancelled = false;
        for (const [index, job] of jobs.entries()) {
          if (index === cancelAfter) {
            await redis.hset(keys.run(runId), 'status', 'cancelling');
            const run = parseRun(await redis.hgetall(keys.run(runId)));
            await advanceCancel(redis, keys, queues, run!);
            cancelled = true;
          }
          // Earlier attempts (retries, a batch split in halves) carried part of the items.
          const tally: Tally = {};
          for (const request of job.requests) {
            for (let i = 0; i < request.items.length; i += 1) {
              addToTally(tally, request.operationId, pick(OUTCOMES), 1);
            }
          }
          const settle = () =>
            settleJob(redis, keys, {
              runId,
              pipeline,
              jobId: job.id,
              stage: job.stage,
              tally,
              deadLetters: 0,
            });
          await settle();
          if (rand() < 0.2) await settle(); // settled again by a worker taking it over
          await expectCountsHold(runId, false);
        }
        const run = parseRun(await redis.hgetall(keys.run(runId)));
        if (!run) throw new Error('run gone');
        if (run.status === 'cancelling') {
          // Jobs of stages never released: the supervisor's pass drops them and ends the run.
          await advanceCancel(redis, keys, queues, run);
        }
        const ended = parseRun(await redis.hgetall(keys.run(runId)))!;
        expect(ended.status, `seed ${seed}`).toBe(
          cancelled
            ? 'cancelled'
            : itemTotals(ended.operations).failed > 0 || ended.rejected > 0
              ? 'partial'
              : 'succeeded',
        );
        await expectCountsHold(runId, true);
        const gauge = await redis.hget(keys.metrics, lastSuccessField(pipeline));
        if (kind === 'sync' && !cancelled) expect(gauge, `seed ${seed}`).not.toBeNull();
        else expect(gauge, `seed ${seed}`).toBeNull();
      }
    } finally {
      await queues.close();
    }
  });
});
