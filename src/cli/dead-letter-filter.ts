import type { FerryConfig } from '../config/index.js';
import type { DeadLetter, DeadLetterFilter } from '../runs/index.js';
import { stringOption, type OptionSpec, type ParsedArgs } from './command.js';
import { platformOption, pipelineOnPlatformFilter } from './platform-option.js';
import { withRedis } from './with-redis.js';

/** The filter options of the `dlq` commands that select dead letters. */
export const DEAD_LETTER_FILTER_OPTIONS = {
  pipeline: {
    type: 'string',
    placeholder: 'P',
    description: 'Only the dead letters of this pipeline.',
  },
  run: { type: 'string', placeholder: 'R', description: 'Only the dead letters of this run.' },
  operation: { type: 'string', placeholder: 'O', description: 'Only this operation id.' },
  key: { type: 'string', placeholder: 'K', description: 'Only those with an item of this key.' },
  ...platformOption('the dead letters'),
} satisfies Record<string, OptionSpec>;

/**
 * `--pipeline`, `--platform`, `--run`, `--operation` and `--key` (those the command declares) ->
 * a dead-letter filter; given together, an entry must match each (`--pipeline catalog --platform
 * north`: catalog@north's).
 */
export async function deadLetterFilter(
  args: ParsedArgs,
  config: FerryConfig,
): Promise<DeadLetterFilter> {
  const filter: DeadLetterFilter = { ...(await pipelineOnPlatformFilter(args, config)) };
  const run = stringOption(args, 'run');
  const operation = stringOption(args, 'operation');
  const key = stringOption(args, 'key');
  if (run !== undefined) filter.runId = run;
  if (operation !== undefined) filter.operationId = operation;
  if (key !== undefined) filter.key = key;
  return filter;
}

/** The dead letters the command's filter options select, oldest first. */
export async function selectedDeadLetters(
  args: ParsedArgs,
  config: FerryConfig,
): Promise<DeadLetter[]> {
  const filter = await deadLetterFilter(args, config);
  const { connectDelivery } = await import('../queue/index.js');
  const { createDeadLetterStore, deliveryKeys } = await import('../runs/index.js');
  return await withRedis(
    () => connectDelivery(config.redis, 'the dead letters are kept there'),
    (redis) => createDeadLetterStore(redis, deliveryKeys(config.redis.prefix)).list(filter),
  );
}
