/**
 * How fast a nightly catalog plans: `node --import tsx bench/plan.ts [N=1000000] [--rerun]
 * [--openapi]`.
 * Writes (once) an N-row items.csv with bench/generate-items.ts to .bench-data/, plans it with the
 * catalog pipeline against a fresh key prefix (every entity new: the first night) and prints one
 * JSON line: rows, seconds, rowsPerSec, peakRssMb, the operations and the rejected records.
 * With --rerun it then commits every planned item (what delivery does) and plans the same file
 * again (nothing changed: every state read hits), and prints a second line.
 * Each measured plan runs in a process of its own, so its peak RSS is its own.
 * With --openapi the plan runs against a description (interface.openapi): the simulator's own,
 * with price amounts as JSON numbers (multipleOf 0.01), so every payload is validated and every
 * amount written from its digits.
 * Needs a Redis (REDIS_URL, default 127.0.0.1:6379); the keys it wrote are deleted at the end.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { loadConfig, PROJECT_ROOT } from '../src/config/load-config.js';
import { resolveBindings } from '../src/interface/bindings.js';
import { loadPipeline } from '../src/pipeline/definition/load-pipeline.js';
import { boundHeapGrowth } from '../src/pipeline/heap-tuning.js';
import { planPipeline } from '../src/pipeline/plan-pipeline.js';
import { buildOpenApi } from '../src/simulator/openapi.js';
import { createStateStore } from '../src/state/state-store.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';
import { generateItems } from './generate-items.js';

const { values, positionals } = parseArgs({
  options: {
    rerun: { type: 'boolean' },
    phase: { type: 'string' },
    prefix: { type: 'string' },
    openapi: { type: 'boolean' },
  },
  allowPositionals: true,
});
const rows = Number(positionals[0] ?? 1_000_000);
const file = resolve(PROJECT_ROOT, `.bench-data/plan-items-${rows}.csv`);
const description = resolve(PROJECT_ROOT, '.bench-data/plan-openapi.json');

/** Ferry's assumed description, price amounts as JSON numbers in cents. */
function writeDescription(): void {
  const doc = buildOpenApi({
    listing: 'A',
    bindings: resolveBindings({}),
    serverUrl: 'http://127.0.0.1:4010',
    idempotencyHeader: 'Idempotency-Key',
  });
  const schemas = (doc.components as { schemas: Record<string, { properties: object }> }).schemas;
  Object.assign(schemas.Price!.properties, {
    amount: { type: 'number', minimum: 0, multipleOf: 0.01 },
  });
  writeFileSync(description, JSON.stringify(doc));
}

/** One plan in this process: `first` and `unchanged` are measured; `seed` commits what it plans. */
async function runPhase(phase: string, prefix: string): Promise<void> {
  boundHeapGrowth(); // as `ferry plan` does (src/pipeline/heap-tuning.ts)
  const loaded = loadConfig().config;
  const config = values.openapi
    ? { ...loaded, interface: { ...loaded.interface, openapi: description } }
    : loaded;
  const redis = new Redis(config.redis.url);
  const store = createStateStore(redis, prefix);
  const commits: Promise<unknown>[] = [];
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const plan = await planPipeline({
    definition: loadPipeline('catalog', config),
    sourceOverride: { file },
    redis,
    prefix,
    config,
    retainRequests: false,
    // Sent at once, commits queue in Redis ahead of the plan's next reads: that paces the plan.
    onRequest:
      phase === 'seed'
        ? (_stage, request) => commits.push(store.commit('catalog', request.items))
        : undefined,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  await Promise.all(commits);
  redis.disconnect();
  if (phase === 'seed') return;
  console.log(
    JSON.stringify({
      run: phase,
      rows: plan.rows,
      seconds: Number(seconds.toFixed(2)),
      // This process's CPU (user + system): steadier than seconds on a shared machine.
      cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
      rowsPerSec: Math.round(plan.rows / seconds),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      operations: plan.operations,
      unchanged: plan.unchanged,
      rejected: plan.errors.length,
    }),
  );
}

function child(phase: string, prefix: string): void {
  const self = fileURLToPath(import.meta.url);
  const args = ['--import', 'tsx', self, String(rows), '--phase', phase, '--prefix', prefix];
  if (values.openapi) args.push('--openapi');
  const r = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: PROJECT_ROOT });
  if (r.status !== 0) throw new Error(`bench phase ${phase} failed (exit ${r.status})`);
}

async function deletePrefix(prefix: string): Promise<void> {
  const redis = new Redis(loadConfig().config.redis.url);
  await deleteKeysUnder(redis, prefix);
  redis.disconnect();
}

if (values.phase) {
  await runPhase(values.phase, values.prefix as string);
} else {
  if (!existsSync(file)) {
    process.stderr.write(`writing ${file}...\n`);
    await generateItems(rows, file);
  }
  if (values.openapi) writeDescription();
  const prefix = `ferry-bench-plan-${process.pid}`;
  try {
    child('first', `${prefix}-a`);
    if (values.rerun) {
      child('seed', `${prefix}-b`);
      child('unchanged', `${prefix}-b`);
    }
  } finally {
    await deletePrefix(`${prefix}-a`);
    await deletePrefix(`${prefix}-b`);
  }
}
