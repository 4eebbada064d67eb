import type { FerryConfig } from '../config/index.js';
import type { DeadLetter, DeadLetterFilter } from '../runs/index.js';
import { stringOption, type OptionSpec, type ParsedArgs } from './command.js';
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
} satisfies Record<string, OptionSpec>;

/**
 * `--pipeline`, `--run`, `--operation` and `--key` (those the command declares) -> a dead-letter
 * filter; given together, an entry must match each.
 */
export function deadLetterFilter(args: ParsedArgs): DeadLetterFilter {
  const filter: DeadLetterFilter = {};
  const pipeline = stringOption(args, 'pipeline');
  if (pipeline !== undefined) filter.pipeline = pipeline;
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
  const { connectDelivery } = await import('../queue/index.js');
  const { createDeadLetterStore, deliveryKeys } = await import('../runs/index.js');
  return await withRedis(
    () => connectDelivery(config.redis, 'the dead letters are kept there'),
    (redis) =>
      createDeadLetterStore(redis, deliveryKeys(config.redis.prefix)).list(deadLetterFilter(args)),
  );
}
