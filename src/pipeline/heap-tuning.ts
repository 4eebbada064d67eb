import { setFlagsFromString } from 'node:v8';

/**
 * Planning a large export makes garbage at a high rate, and V8 then lets the heap grow to three
 * or four times the live data before it collects (measured: 400 MB peak RSS for 1,000,000 rows,
 * of which about 100 MB is live). A growth factor of 1.5 keeps `ferry plan` near 260 MB at about the same
 * speed (docs/BENCHMARKS.md, "Planning"). V8 reads this flag each time it sizes the heap, so
 * setting it in a running process works; it is left alone when the operator set it
 * (NODE_OPTIONS or node's own arguments). Commands that plan call this once at start.
 */
export function boundHeapGrowth(percent = 50): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  if (/heap[-_]growing[-_]percent/.test(given)) return;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
