import { flag, JSON_OPTION, writeJson, type Command } from '../command.js';
import { withRedis } from '../with-redis.js';

export const dlqShowCommand: Command = {
  name: 'dlq show',
  usage: 'dlq show <ID> [--json]',
  description: [
    'With --json: the whole entry {id, runId, pipeline, operationId, pathParams, idempotencyKey,',
    'items: [{key, kind, payload, version, source: {file, line}, ...}], request: {method, path,',
    'headers, body} (no credentials), status, bodyExcerpt, errorCode, message, error?, errors?,',
    "attempts, at}; error: the platform's own words, with each item error's pointer (errors).",
    'Exit 0; 2 when there is no such dead letter.',
  ].join('\n'),
  options: { ...JSON_OPTION },
  positionals: [1, 1],
  async run({ args, stdout, config: getConfig }) {
    const { connectDelivery } = await import('../../queue/index.js');
    const { createDeadLetterStore, deadLetterText, NotFoundError, deliveryKeys } =
      await import('../../runs/index.js');
    const config = getConfig();
    const id = args.positionals[0] as string;
    return await withRedis(
      () => connectDelivery(config.redis, 'the dead letters are kept there'),
      async (redis) => {
        const entry = await createDeadLetterStore(redis, deliveryKeys(config.redis.prefix)).get(id);
        if (!entry)
          throw new NotFoundError('dead letter', id, 'Run `ferry dlq list` to see the ids.');
        if (flag(args, 'json')) await writeJson(stdout, entry);
        else stdout.write(deadLetterText(entry));
        return 0;
      },
    );
  },
};
