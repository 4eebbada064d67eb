import { flag, JSON_OPTION, writeJson, type Command } from '../command.js';
import { DEAD_LETTER_FILTER_OPTIONS, deadLetterFilter } from '../dead-letter-filter.js';
import { withRedis } from '../with-redis.js';

export const dlqListCommand: Command = {
  name: 'dlq list',
  usage: 'dlq list [--pipeline P] [--run R] [--operation O] [--key K] [--json]',
  description: [
    'Oldest first. With --json: an array of {id, at, runId, pipeline, operationId, keys, source',
    '(file:line of each item), status, errorCode, message, attempts, failures}. One open entry per',
    'item: a later failure of the same item updates its entry (failures counts up; run, error and',
    'source are the newest). Filters combine (--pipeline catalog --key 0042). Exit 0.',
  ].join('\n'),
  options: {
    ...DEAD_LETTER_FILTER_OPTIONS,
    ...JSON_OPTION,
  },
  async run({ args, stdout, config: getConfig }) {
    const { connectDelivery } = await import('../../queue/index.js');
    const { createDeadLetterStore, deadLetterRow, deadLetterTable, deliveryKeys } =
      await import('../../runs/index.js');
    const config = getConfig();
    return await withRedis(
      () => connectDelivery(config.redis, 'the dead letters are kept there'),
      async (redis) => {
        const filter = deadLetterFilter(args);
        const entries = await createDeadLetterStore(redis, deliveryKeys(config.redis.prefix)).list(
          filter,
        );
        if (flag(args, 'json')) writeJson(stdout, entries.map(deadLetterRow));
        else stdout.write(deadLetterTable(entries));
        return 0;
      },
    );
  },
};
