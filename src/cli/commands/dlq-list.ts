import { connectDelivery } from '../../queue/connect.js';
import { createDeadLetterStore } from '../../queue/dlq/dead-letter-store.js';
import { deadLetterRow, deadLetterTable } from '../../queue/dlq/dead-letter-views.js';
import { deliveryKeys } from '../../queue/keys.js';
import { flag, JSON_OPTION, stringOption, writeJson, type Command } from '../command.js';

export const dlqListCommand: Command = {
  name: 'dlq list',
  summary: 'List dead letters (by run, operation or item key).',
  usage: 'dlq list [--run R] [--operation O] [--key K] [--json]',
  description: [
    'Oldest first. With --json: an array of {id, at, runId, pipeline, operationId, keys, source',
    '(file:line of each item), status, errorCode, message, attempts}. Exit 0.',
  ].join('\n'),
  options: {
    run: { type: 'string', placeholder: 'R', description: 'Only the dead letters of this run.' },
    operation: { type: 'string', placeholder: 'O', description: 'Only this operation id.' },
    key: { type: 'string', placeholder: 'K', description: 'Only those with an item of this key.' },
    ...JSON_OPTION,
  },
  async run({ args, stdout, config: getConfig }) {
    const config = getConfig();
    const redis = await connectDelivery(config.redis.url);
    try {
      const filter: { runId?: string; operationId?: string; key?: string } = {};
      const run = stringOption(args, 'run');
      const operation = stringOption(args, 'operation');
      const key = stringOption(args, 'key');
      if (run !== undefined) filter.runId = run;
      if (operation !== undefined) filter.operationId = operation;
      if (key !== undefined) filter.key = key;
      const entries = await createDeadLetterStore(redis, deliveryKeys(config.redis.prefix)).list(
        filter,
      );
      if (flag(args, 'json')) writeJson(stdout, entries.map(deadLetterRow));
      else stdout.write(deadLetterTable(entries));
      return 0;
    } finally {
      redis.disconnect();
    }
  },
};
