/**
 * Delivery's commit path alone: `node --import tsx bench/commit.ts [N=20000]`.
 * Plans an N-row items.csv (bench/generate-items.ts) with the catalog pipeline, bundles its
 * requests into jobs as a run does (`delivery.bundleSize`), and commits each job's items as
 * confirmed (delivered-items.ts, then the payload history's commit: state and before-images in
 * one script per resource and chunk), 8 jobs at a time like the default worker. Twice: night 1
 * (every entity new) and night 2 (every entity upserted again, so each before-image carries the
 * payload it replaced). No HTTP: what is measured is the commit's cost alone.
 * Prints one JSON line per night: items, seconds, cpuSeconds (this process), redisCpuSeconds and
 * redisInBytes (INFO of the Redis, so use one nothing else writes to), bytesPerItem,
 * scriptUsecPerItem (Redis's time in the scripts, commandstats) and Redis's calls per item of each
 * command the scripts ran.
 * Needs a Redis (REDIS_URL); the keys it wrote are deleted at the end.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { loadConfig, PROJECT_ROOT } from '../src/config/load-config.js';
import { loadPipeline } from '../src/pipeline/definition/load-pipeline.js';
import { planPipeline } from '../src/pipeline/plan-pipeline.js';
import { JobBundler } from '../src/queue/bundle-jobs.js';
import { deliveredItems } from '../src/queue/worker/delivered-items.js';
import type { JobRequest, StagedJob } from '../src/runs/job-data.js';
import { createPayloadHistory } from '../src/state/before-images/payload-history.js';
import type { StateItem } from '../src/state/types.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';
import { generateItems } from './generate-items.js';
import { redisCpuSeconds } from './process-cpu.js';

const rows = Number(process.argv[2] ?? 20_000);
const CONCURRENCY = 8;
const { config } = loadConfig();
const redis = new Redis(config.redis.url);
const prefix = `bench-commit-${process.pid}`;
const file = resolve(PROJECT_ROOT, `.bench-data/items-${rows}.csv`);
if (!existsSync(file)) await generateItems(rows, file);

const plan = await planPipeline({
  definition: loadPipeline('catalog', config),
  sourceOverride: { file },
  redis,
  config,
  prefix,
  version: 1,
});
const jobs: StagedJob[] = [];
const bundler = new JobBundler(config.delivery.bundleSize, (job) => jobs.push(job));
for (const stage of plan.stages) for (const r of stage.requests) bundler.add(stage.index, r);
bundler.finish();

/** Each job's requests as night 2 sends them: every item upserted at version 2. */
function nightTwo(request: JobRequest): JobRequest {
  const again = (item: StateItem): StateItem => {
    const out: StateItem = { ...item, kind: 'upsert', version: 2, baseVersion: 1 };
    if (item.also) out.also = item.also.map(again);
    return out;
  };
  return { ...request, items: request.items.map(again) };
}

interface RedisFigures {
  cpu: number;
  inBytes: number;
  /** Time Redis spent running the scripts (commandstats of EVALSHA and EVAL). */
  scriptUsec: number;
  calls: Map<string, number>;
}

async function redisFigures(): Promise<RedisFigures> {
  const stats = await redis.info('stats');
  const commands = await redis.info('commandstats');
  const field = (text: string, name: string): number =>
    Number(new RegExp(`${name}:([\\d.]+)`).exec(text)?.[1] ?? 0);
  const calls = new Map<string, number>();
  let scriptUsec = 0;
  for (const m of commands.matchAll(/cmdstat_(\w+):calls=(\d+),usec=(\d+)/g)) {
    calls.set(m[1] ?? '', Number(m[2]));
    if (m[1] === 'evalsha' || m[1] === 'eval') scriptUsec += Number(m[3]);
  }
  return {
    cpu: await redisCpuSeconds(redis),
    inBytes: field(stats, 'total_net_input_bytes'),
    scriptUsec,
    calls,
  };
}

const history = createPayloadHistory(redis, prefix, config.undo.retentionDays);
try {
  for (const night of [1, 2]) {
    const work = jobs.map((job) => (night === 1 ? job.requests : job.requests.map(nightTwo)));
    const before = await redisFigures();
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    let next = 0;
    let items = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < work.length) {
          const requests = work[next++] as JobRequest[];
          const confirmed = requests.flatMap((request) =>
            request.items.map((item) => ({ item, request })),
          );
          const delivered = deliveredItems(confirmed);
          const { committed } = await history.commit('catalog', `run-${night}`, delivered);
          items += committed.length;
        }
      }),
    );
    const used = process.cpuUsage(cpu);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const after = await redisFigures();
    const perItem: Record<string, number> = {};
    for (const [name, n] of after.calls) {
      const d = n - (before.calls.get(name) ?? 0);
      if (d > 0 && name !== 'info') perItem[name] = Number((d / items).toFixed(3));
    }
    const inBytes = after.inBytes - before.inBytes;
    console.log(
      JSON.stringify({
        night,
        rows,
        jobs: jobs.length,
        items,
        seconds: Number(seconds.toFixed(2)),
        cpuSeconds: Number(((used.user + used.system) / 1e6).toFixed(2)),
        redisCpuSeconds: Number((after.cpu - before.cpu).toFixed(2)),
        scriptUsecPerItem: Number(((after.scriptUsec - before.scriptUsec) / items).toFixed(2)),
        redisInBytes: inBytes,
        bytesPerItem: Math.round(inBytes / items),
        callsPerItem: perItem,
      }),
    );
  }
} finally {
  await deleteKeysUnder(redis, prefix);
  redis.disconnect();
}
