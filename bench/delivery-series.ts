/**
 * bench/delivery.ts several times, each in a fresh process (its first run must be cold), and the
 * spread of its figures: `node --import tsx bench/delivery-series.ts K [delivery.ts's arguments]`,
 * e.g. `bench/delivery-series.ts 5 20000 --rate 0`. On a shared or virtual machine one run's
 * cpuRatio moves by a third between consecutive runs (docs/BENCHMARKS.md, Delivery), so a claim
 * about it needs several. Prints each run's JSON line on stderr as it ends, then one JSON line on
 * stdout: {runs, arguments, figures: {name: {median, min, max, values}}} for the ratios and CPU
 * seconds. Exit 1 when a run fails (its own output says why).
 */
import { spawnSync } from 'node:child_process';
import { PROJECT_ROOT } from '../src/config/load-config.js';

const FIGURES = [
  'cpuRatio',
  'deliveryCpuRatio',
  'warmCpuRatio',
  'ratio',
  'cpuSeconds',
  'planCpuSeconds',
  'deliveryCpuSeconds',
  'boundCpuSeconds',
  'warmCpuSeconds',
  'boundWarmCpuSeconds',
  'rerunRequests',
] as const;

const [count, ...rest] = process.argv.slice(2);
const runs = Number(count);
if (count === '--help' || count === '-h' || !Number.isInteger(runs) || runs < 1) {
  if (count !== '--help' && count !== '-h') {
    process.stderr.write(
      `K (the number of runs) must be a whole number >= 1, got ${JSON.stringify(count ?? '')}\n`,
    );
  }
  process.stderr.write(
    'Usage: node --import tsx bench/delivery-series.ts K [bench/delivery.ts arguments]\n' +
      'Runs bench/delivery.ts K times (K >= 1), each in a process of its own, and prints the\n' +
      'median, min and max of its ratios and CPU seconds. Example: bench/delivery-series.ts 5 20000 --rate 0\n',
  );
  process.exit(count === '--help' || count === '-h' ? 0 : 2);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const lines: Record<string, number>[] = [];
for (let i = 1; i <= runs; i++) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/delivery.ts', ...rest], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const last = run.stdout.trim().split('\n').pop() ?? '';
  if (run.status !== 0 || !last.startsWith('{')) {
    process.stderr.write(`run ${i} of ${runs} failed (exit ${run.status}):\n${run.stdout}`);
    process.exit(1);
  }
  process.stderr.write(`run ${i} of ${runs}: ${last}\n`);
  lines.push(JSON.parse(last) as Record<string, number>);
}

const figures: Record<string, { median: number; min: number; max: number; values: number[] }> = {};
for (const name of FIGURES) {
  const values = lines.map((l) => l[name]).filter((v): v is number => typeof v === 'number');
  if (values.length === 0) continue;
  figures[name] = {
    median: Number(median(values).toFixed(2)),
    min: Math.min(...values),
    max: Math.max(...values),
    values,
  };
}
console.log(JSON.stringify({ runs, arguments: rest, figures }));
