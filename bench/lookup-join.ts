/**
 * A source joined with a lookup file: `node --import tsx bench/lookup-join.ts [N=1000000]`.
 * Writes (once) an N-row Products.csv and an N-row ProductTexts.csv (one text per product, in
 * another order) to .bench-data/, then plans, each in a process of its own against a fresh key
 * prefix (every product new): the products named from the text table (`lookup`), and the same
 * pipeline with the name from a column of the source instead (`column`). Prints one JSON line per
 * plan (rows, seconds, cpuSeconds, rowsPerSec, peakRssMb) and one with the ratio of their rows/s.
 * Needs a Redis (REDIS_URL, default 127.0.0.1:6379); the keys it wrote are deleted at the end.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { loadConfig, PROJECT_ROOT } from '../src/config/load-config.js';
import { compilePipeline } from '../src/pipeline/definition/load-pipeline.js';
import { pipelineSchema } from '../src/pipeline/definition/pipeline-schema.js';
import { boundHeapGrowth } from '../src/pipeline/heap-tuning.js';
import { planPipeline } from '../src/pipeline/plan-pipeline.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';

const { values, positionals } = parseArgs({
  options: { variant: { type: 'string' }, prefix: { type: 'string' } },
  allowPositionals: true,
});
const rows = Number(positionals[0] ?? 1_000_000);
const dir = resolve(PROJECT_ROOT, '.bench-data');
const products = resolve(dir, `lookup-products-${rows}.csv`);
const texts = resolve(dir, `lookup-texts-${rows}.csv`);

const id = (n: number): string => `HT-${String(n).padStart(7, '0')}`;

async function writeLines(file: string, header: string, line: (n: number) => string) {
  const out = createWriteStream(file);
  let chunk = `${header}\n`;
  for (let n = 0; n < rows; n++) {
    chunk += `${line(n)}\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise<void>((r) => out.once('finish', () => r()));
}

async function generate(): Promise<void> {
  mkdirSync(dir, { recursive: true });
  process.stderr.write(`writing ${products} and ${texts}...\n`);
  await writeLines(
    products,
    'PRODUCTID,PRODCATEGORYID,PRICE,NAME',
    (n) => `${id(n)},C${n % 50},${(n % 997) + 1}.50,Product number ${n} of the catalog`,
  );
  // The text table in another order than the products: a prime stride is a permutation.
  await writeLines(texts, 'PRODUCTID,LANGUAGE,SHORT_DESCR', (i) => {
    const n = (i * 7919) % rows;
    return `${id(n)},EN,Product number ${n} of the catalog`;
  });
}

function pipeline(variant: string) {
  const name =
    variant === 'lookup'
      ? { column: 'PRODUCTID', lookup: 'names', required: true }
      : { column: 'NAME', required: true };
  return pipelineSchema.parse({
    source: { file: products },
    mode: 'snapshot',
    lookups: {
      names: { file: texts, key: 'PRODUCTID', value: 'SHORT_DESCR', where: { LANGUAGE: 'EN' } },
    },
    entities: [
      {
        name: 'product',
        operations: { upsert: 'products.put' },
        key: 'PRODUCTID',
        fields: {
          name,
          vendor: { template: 'ACME' },
          handle: { template: '{PRODUCTID}', slug: true },
          active: { template: 'true', type: 'boolean' },
          categoryExternalIds: { array: [{ column: 'PRODCATEGORYID' }] },
        },
      },
    ],
  });
}

async function runVariant(variant: string, prefix: string): Promise<void> {
  boundHeapGrowth(); // as `ferry plan` does
  const { config } = loadConfig();
  const redis = new Redis(config.redis.url);
  const definition = compilePipeline('lookup-join', 'bench', pipeline(variant), config);
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const plan = await planPipeline({ definition, redis, prefix, config, retainRequests: false });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  redis.disconnect();
  console.log(
    JSON.stringify({
      variant,
      rows: plan.rows,
      rejected: plan.errors.length,
      seconds: Number(seconds.toFixed(2)),
      cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
      rowsPerSec: Math.round(plan.rows / seconds),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    }),
  );
}

function child(variant: string, prefix: string): { rowsPerSec: number } {
  const self = fileURLToPath(import.meta.url);
  const args = ['--import', 'tsx', self, String(rows), '--variant', variant, '--prefix', prefix];
  const r = spawnSync(process.execPath, args, { cwd: PROJECT_ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench variant ${variant} failed: ${r.stderr}`);
  process.stdout.write(r.stdout);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { rowsPerSec: number };
}

if (values.variant) {
  await runVariant(values.variant, values.prefix!);
} else {
  if (!existsSync(products) || !existsSync(texts)) await generate();
  const prefix = `ferry-bench-lookup-${process.pid}`;
  const redis = new Redis(loadConfig().config.redis.url);
  try {
    const column = child('column', `${prefix}-a`);
    const lookup = child('lookup', `${prefix}-b`);
    console.log(
      JSON.stringify({ ratio: Number((lookup.rowsPerSec / column.rowsPerSec).toFixed(2)) }),
    );
  } finally {
    await deleteKeysUnder(redis, prefix);
    redis.disconnect();
  }
}
