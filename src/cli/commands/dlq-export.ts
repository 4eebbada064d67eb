import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../../errors/index.js';
import { flag, JSON_OPTION, stringOption, writeJson, type Command } from '../command.js';
import { DEAD_LETTER_FILTER_OPTIONS, selectedDeadLetters } from '../dead-letter-filter.js';

export const dlqExportCommand: Command = {
  name: 'dlq export',
  usage: 'dlq export [--pipeline P] [--run R] [--operation O] --csv FILE [--json]',
  description: [
    'Columns: deadLetterId, at, runId, pipeline, operation, key, file, line, status, code, message,',
    "attempts, payload (JSON). A cell that starts with = + - or @ gets a leading ' so that a",
    'spreadsheet shows it as text and never runs it as a formula. With --json: {file, rows}.',
    'Exit 0; 2 bad usage.',
  ].join('\n'),
  options: {
    pipeline: DEAD_LETTER_FILTER_OPTIONS.pipeline,
    run: DEAD_LETTER_FILTER_OPTIONS.run,
    operation: DEAD_LETTER_FILTER_OPTIONS.operation,
    csv: { type: 'string', placeholder: 'FILE', description: 'The CSV file to write.' },
    ...JSON_OPTION,
  },
  async run({ args, stdout, config }) {
    const file = stringOption(args, 'csv');
    if (file === undefined) throw new UsageError('ferry dlq export needs --csv FILE.');
    const { deadLettersCsv } = await import('../../runs/index.js');
    const entries = await selectedDeadLetters(args, config());
    const path = resolve(file);
    await writeFile(path, deadLettersCsv(entries));
    const rows = entries.reduce((n, e) => n + e.items.length, 0);
    if (flag(args, 'json')) await writeJson(stdout, { file: path, rows });
    else stdout.write(`Wrote ${rows} row(s) of ${entries.length} dead letter(s) to ${path}\n`);
    return 0;
  },
};
