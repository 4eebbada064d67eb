/** How dead letters are shown: a summary row (list, export) and the text of `ferry dlq show`. */
import { stringifyExact, toCsv } from '../../base/index.js';
import type { DeadLetter } from './dead-letter.js';

export interface DeadLetterRow {
  id: string;
  at: string;
  runId: string;
  pipeline: string;
  operationId: string;
  keys: string[];
  source: string[];
  status?: number;
  errorCode: string;
  message: string;
  /** The platform's own words, with each item error's pointer. */
  error?: string;
  attempts: number;
  /** Failures of these items since the entry opened (later runs update it in place). */
  failures: number;
}

export function deadLetterRow(entry: DeadLetter): DeadLetterRow {
  const row: DeadLetterRow = {
    id: entry.id,
    at: new Date(entry.at).toISOString(),
    runId: entry.runId,
    pipeline: entry.pipeline,
    operationId: entry.operationId,
    keys: entry.items.map((i) => i.key),
    source: entry.items.flatMap((i) => (i.source ? [`${i.source.file}:${i.source.line}`] : [])),
    errorCode: entry.errorCode,
    message: entry.message,
    attempts: entry.attempts,
    failures: entry.failures ?? 1,
  };
  if (entry.status !== undefined) row.status = entry.status;
  if (entry.error !== undefined) row.error = entry.error;
  return row;
}

function shortList(values: readonly string[], max = 3): string {
  return values.length <= max
    ? values.join(',')
    : `${values.slice(0, max).join(',')},+${values.length - max}`;
}

export function deadLetterTable(entries: readonly DeadLetter[]): string {
  if (entries.length === 0) return 'No dead letters.\n';
  const rows = [
    ['id', 'at', 'operation', 'keys', 'source', 'status', 'code'],
    ...entries.map((e) => {
      const r = deadLetterRow(e);
      return [
        r.id,
        r.at.slice(0, 19),
        r.operationId,
        shortList(r.keys),
        shortList(r.source, 2) || '-',
        String(r.status ?? '-'),
        r.errorCode,
      ];
    }),
  ];
  // Columns aligned: each as wide as its widest cell.
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n${entries.length} dead letter(s). \`ferry dlq show ID\` for one.\n`;
}

export function deadLetterText(entry: DeadLetter): string {
  const lines = [
    `Dead letter ${entry.id}`,
    `  run:        ${entry.runId} (pipeline ${entry.pipeline})`,
    `  operation:  ${entry.operationId} ${entry.request.method} ${entry.request.path}`,
    `  at:         ${new Date(entry.at).toISOString()} after ${entry.attempts} attempt(s)`,
    `  error:      ${entry.errorCode}${entry.status !== undefined ? ` (status ${entry.status})` : ''}`,
    `  message:    ${entry.message}`,
  ];
  if (entry.error) lines.push(`  platform:   ${entry.error}`);
  if (entry.bodyExcerpt) lines.push(`  answer:     ${entry.bodyExcerpt}`);
  if (entry.replayOf) lines.push(`  replay of:  ${entry.replayOf}`);
  lines.push(`  request headers: ${JSON.stringify(entry.request.headers)}`);
  lines.push('  items:');
  for (const item of entry.items) {
    const where = item.source ? ` from ${item.source.file}:${item.source.line}` : '';
    lines.push(`    ${item.key} (${item.kind}, version ${item.version})${where}`);
    lines.push(`      ${stringifyExact(item.payload)}`);
  }
  lines.push(`Replay it: ferry dlq replay ${entry.id} [--payloads FILE]`);
  return `${lines.join('\n')}\n`;
}

/** One row per item, for the people who fix the data (payload as JSON, to edit and replay). */
export function deadLettersCsv(entries: readonly DeadLetter[]): string {
  const header = [
    'deadLetterId',
    'at',
    'runId',
    'pipeline',
    'operation',
    'key',
    'file',
    'line',
    'status',
    'code',
    'message',
    'attempts',
    'payload',
  ];
  const rows = entries.flatMap((e) =>
    e.items.map((item) => [
      e.id,
      new Date(e.at).toISOString(),
      e.runId,
      e.pipeline,
      e.operationId,
      item.key,
      item.source?.file ?? '',
      item.source?.line ?? '',
      e.status ?? '',
      e.errorCode,
      e.message,
      e.attempts,
      stringifyExact(item.payload),
    ]),
  );
  return toCsv(header, rows);
}
