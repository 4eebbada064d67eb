/**
 * `ferry plan catalog --show-items --json` of a large export through a pipe:
 * `node --import tsx bench/plan-json.ts [N=1000000]`. Writes (once) the N-row items.csv of
 * bench/plan.ts to .bench-data/, runs `ferry` (src/cli/ferry.js) against a fresh key prefix with
 * its stdout a pipe, and checks the document as it streams by: it must end whole, with one item
 * per planned item of its `operations`. Prints one JSON line: rows, items, bytes, seconds, the
 * child's CPU seconds and peak RSS (VmHWM; both sampled every 100 ms) and its exit code (1: the
 * export's rejectable records). A document built as one string crashed at 1M rows (RangeError:
 * Invalid string length).
 * Needs a Redis (REDIS_URL, default 127.0.0.1:6379); the plan writes no key.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../src/config/load-config.js';
import { generateItems } from './generate-items.js';
import { processCpuSeconds } from './process-cpu.js';

const rows = Number(process.argv[2] ?? 1_000_000);
const file = resolve(PROJECT_ROOT, `.bench-data/plan-items-${rows}.csv`);
if (!existsSync(file)) {
  process.stderr.write(`writing ${file}...\n`);
  await generateItems(rows, file);
}

/** The child's peak resident memory so far, in MB (Linux /proc). */
function peakRssMb(pid: number): number | undefined {
  try {
    const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}

const env = { ...process.env, FERRY_PREFIX: `ferry-bench-plan-json-${process.pid}` };
const started = process.hrtime.bigint();
const child = spawn(
  process.execPath,
  ['src/cli/ferry.js', 'plan', 'catalog', '--file', file, '--show-items', '--json'],
  { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] },
);
let peak = 0;
let cpuSeconds = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, peakRssMb(child.pid!) ?? 0);
  cpuSeconds = processCpuSeconds(child.pid) ?? cpuSeconds;
}, 100);

// Only the head (up to the items) and the tail are kept; items are counted as they pass.
const ITEM = '\n    {\n      "operationId": ';
let head = '';
let tail = '';
let bytes = 0;
let items = 0;
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk: string) => {
  bytes += Buffer.byteLength(chunk);
  const text = tail + chunk;
  if (!head.includes('"items": [')) head += chunk;
  for (let at = text.indexOf(ITEM); at !== -1; at = text.indexOf(ITEM, at + 1)) {
    if (at + ITEM.length > tail.length) items += 1; // not counted with the chunk before
  }
  tail = text.slice(-ITEM.length);
});
const code = await new Promise<number | null>((done) => child.once('close', done));
clearInterval(sampler);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;

const operations = JSON.parse(/"operations": (\{[\s\S]*?\n {2}\}),\n/.exec(head)![1]!) as Record<
  string,
  { items: number }
>;
const planned = Object.values(operations).reduce((n, o) => n + o.items, 0);
const whole = tail.endsWith('\n  ]\n}\n') && items === planned;
console.log(
  JSON.stringify({
    rows,
    items,
    planned,
    whole,
    bytes,
    seconds: Number(seconds.toFixed(1)),
    cpuSeconds,
    peakRssMb: peak,
    exitCode: code,
  }),
);
if (!whole) process.exitCode = 1;
