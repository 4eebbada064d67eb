/**
 * An export's file name pattern (`orders-{date}-{seq}.csv`): literal text and placeholders, each
 * checked when the pipeline loads and filled when a run names its file (src/export/file-name.ts).
 *   {date} {date:FORMAT}  the run's date in target.timeZone (default yyyy-mm-dd)
 *   {time} {time:FORMAT}  the run's time of day (default hhmmss)
 *   {seq} {seq:N}         the export's number (1, 2, ...), zero-padded to N digits
 *   {from} {to}           the cursor values of the first and last item in the file
 *   {pipeline} {runId}
 */
import { formatInstant } from '../convert/format-date.js';

export const FILE_PLACEHOLDERS = [
  'date',
  'time',
  'seq',
  'from',
  'to',
  'pipeline',
  'runId',
] as const;
export type FilePlaceholder = (typeof FILE_PLACEHOLDERS)[number];

export type FilePart = string | { name: FilePlaceholder; arg?: string };

/** Parses a pattern; throws a plain Error naming the problem (the loader makes it an issue). */
export function parseFilePattern(pattern: string): FilePart[] {
  const parts: FilePart[] = [];
  const re = /\{([^{}:]+)(?::([^{}]+))?\}/g;
  let last = 0;
  for (let m = re.exec(pattern); m; m = re.exec(pattern)) {
    if (m.index > last) parts.push(pattern.slice(last, m.index));
    const name = m[1] as FilePlaceholder;
    if (!FILE_PLACEHOLDERS.includes(name)) {
      throw new Error(`unknown placeholder {${m[1]}} (use ${FILE_PLACEHOLDERS.join(', ')})`);
    }
    const arg = m[2];
    if (arg !== undefined) {
      if (name === 'seq' && !/^[1-9]\d?$/.test(arg)) {
        throw new Error(`{seq:N} takes a width from 1 to 99, got "${arg}"`);
      }
      if (name === 'date' || name === 'time') formatInstant(0, arg, 'UTC'); // throws when bad
      if (!['seq', 'date', 'time'].includes(name)) {
        throw new Error(`{${name}} takes no argument`);
      }
    }
    parts.push(arg === undefined ? { name } : { name, arg });
    last = re.lastIndex;
  }
  if (last < pattern.length) parts.push(pattern.slice(last));
  if (/[{}]/.test(parts.filter((p) => typeof p === 'string').join(''))) {
    throw new Error('a lone { or } (placeholders are {name} or {name:argument})');
  }
  return parts;
}
