/**
 * Start-up of the compiled `ferry` binary: `npm run build && node --import tsx bench/startup.ts`.
 * Runs `ferry --help`, `ferry runs --help` (a command's help loads none of its layers) and
 * `ferry operations --json` (dist/src/cli/bin.js) five times each and prints, per command, the
 * median wall time and the largest peak RSS, as JSON lines. The child
 * reports its own peak RSS when it exits (a preloaded data: module), so nothing else is measured.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../src/config/load-config.js';

const RUNS = 5;
const bin = resolve(PROJECT_ROOT, 'dist/src/cli/bin.js');
const reportRss = `data:text/javascript,${encodeURIComponent(
  "process.on('exit', () => process.stderr.write('maxrss ' + process.resourceUsage().maxRSS + '\\n'));",
)}`;

if (!existsSync(bin)) {
  console.error('No dist/src/cli/bin.js: run `npm run build` first.');
  process.exit(2);
}
for (const args of [['--help'], ['runs', '--help'], ['operations', '--json']]) {
  const seconds: number[] = [];
  let peakKb = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    const child = spawnSync(process.execPath, ['--import', reportRss, bin, ...args], {
      encoding: 'utf8',
    });
    seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
    peakKb = Math.max(peakKb, Number(/maxrss (\d+)/.exec(child.stderr)?.[1] ?? 0));
  }
  seconds.sort((a, b) => a - b);
  const median = seconds[Math.floor(RUNS / 2)]!;
  process.stdout.write(
    `${JSON.stringify({ command: `ferry ${args.join(' ')}`, runs: RUNS, medianSeconds: Number(median.toFixed(3)), peakRssMb: Math.round(peakKb / 1024) })}\n`,
  );
}
