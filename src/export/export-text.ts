/** An export run's result for people (`ferry export` without --json). */
import { durationText } from '../base/index.js';
import type { ExportResult } from './run-export.js';

export function exportText(r: ExportResult): string {
  const lines = [
    `Export ${r.runId} (${r.pipeline}, ${r.operation})${r.dryRun ? ' [dry run]' : ''}: ${r.status}`,
  ];
  if (r.recovered) {
    lines.push(
      `  published again the export of run ${r.recovered.runId}, which ended before its cursor ` +
        'moved (same items, same file name); new items go to the next run.',
    );
  }
  lines.push(`  items read: ${r.items}, rows written: ${r.records}, requests: ${r.requests}`);
  for (const f of r.files) {
    lines.push(
      `  ${r.dryRun ? 'would write' : 'wrote'} ${f.path} (${f.records} rows, sha256 ${f.sha256})`,
    );
  }
  if (r.files.length === 0 && r.status === 'succeeded')
    lines.push('  nothing new: no file written.');
  const moved = r.cursor.after !== r.cursor.before;
  lines.push(
    `  cursor: ${r.cursor.before ?? '(start)'} -> ${r.cursor.after ?? '(start)'}` +
      (r.dryRun && moved ? ' (not moved: dry run)' : ''),
  );
  if (r.error) lines.push(`  ${r.error.code}: ${r.error.message}`);
  lines.push(`  took ${durationText(r.seconds)}`);
  return `${lines.join('\n')}\n`;
}
