import { flag, JSON_OPTION, writeJson, type Command } from '../command.js';
import { DEAD_LETTER_FILTER_OPTIONS, selectedDeadLetters } from '../dead-letter-filter.js';

export const dlqListCommand: Command = {
  name: 'dlq list',
  usage: 'dlq list [--pipeline P] [--platform NAME] [--run R] [--operation O] [--key K] [--json]',
  description: [
    'Oldest first. With --json: an array of {id, at, runId, pipeline, operationId, keys, source',
    "(file:line of each item), status, errorCode, message, error (the platform's words, with",
    "each item error's pointer), attempts, failures}. One open entry per",
    'item: a later failure of the same item updates its entry (failures counts up; run, error and',
    'source are the newest). Filters combine (--pipeline catalog --key 0042). A pipeline on',
    'another platform than default is named NAME@PLATFORM (`--pipeline catalog@north`, or',
    '`--pipeline catalog --platform north`); --platform alone keeps the dead letters of every',
    'pipeline on that platform. Exit 0; 2 a platform the config does not declare.',
  ].join('\n'),
  options: {
    ...DEAD_LETTER_FILTER_OPTIONS,
    ...JSON_OPTION,
  },
  async run({ args, stdout, config }) {
    const { deadLetterRow, deadLetterTable } = await import('../../runs/index.js');
    const entries = await selectedDeadLetters(args, config());
    if (flag(args, 'json')) await writeJson(stdout, entries.map(deadLetterRow));
    else stdout.write(deadLetterTable(entries));
    return 0;
  },
};
