import { UsageError } from '../../errors/index.js';
import { flag, JSON_OPTION, positiveIntOption, writeJson, type Command } from '../command.js';
import { MAX_TRACED_RUNS, TRACED_RUNS } from '../help-figures.js';
import { withRedis } from '../with-redis.js';

export const traceCommand: Command = {
  name: 'trace',
  usage: 'trace <pipeline> <key> [--runs N] [--json]',
  description: [
    'Why is this product (store, user) on the platform, or not? Shows, for one key of a pipeline:',
    'its committed state in each entity of the pipeline (hash, version, the run that committed it',
    'and when; a deleted entity keeps a tombstone), the changes the last N runs of the pipeline',
    'planned for it (operation, upsert/patch/delete, and what came of it: delivered, replayed,',
    'dead_lettered, pending, superseded, not_delivered), the rows with its key those runs',
    'rejected (file, line, field, message), and the dead letters waiting with its key.',
    'The key is taken as written: 00042 and 42 are two keys.',
    '',
    'With --json: {pipeline, key, state?, states: [{entity, resource, hash, version, deleted,',
    'committed?: {runId, from, to}}], changes: [{runId, kind, trigger, runStatus, startedAt,',
    'finishedAt?, operationId, resource?, change, outcome, deadLetterId?, traceId?, traceUrl?}],',
    'runsSearched,',
    'rejected: [{runId, file, line, field?, message, startedAt}], deadLetters: [as `ferry dlq',
    'list --json`]}, the document GET /api/entities/{pipeline}/{key} answers. Exit 0; 1 when dead',
    'letters with its key wait or a row of it was rejected since its last delivery; 2 bad usage',
    'or no such pipeline.',
    '',
    'Examples:',
    '  ferry trace catalog A100',
    '  ferry trace stores 00042 --json',
  ].join('\n'),
  options: {
    runs: {
      type: 'string',
      placeholder: 'N',
      description: `Look through the last N runs of the pipeline (default ${TRACED_RUNS}, at most ${MAX_TRACED_RUNS}).`,
    },
    ...JSON_OPTION,
  },
  positionals: [2, 2],
  async run({ args, stdout, config: getConfig }) {
    const { connectDelivery } = await import('../../queue/index.js');
    const {
      createDeadLetterStore,
      deliveryKeys,
      traceEntity,
      tracedPipeline,
      rejectedSinceDelivery,
      traceText,
    } = await import('../../runs/index.js');
    const config = getConfig();
    const [pipeline, key] = args.positionals as [string, string];
    const runs = positiveIntOption(args, 'runs') ?? TRACED_RUNS;
    if (runs > MAX_TRACED_RUNS) {
      throw new UsageError(`--runs takes at most ${MAX_TRACED_RUNS}, got ${runs}.`);
    }
    const definition = tracedPipeline(config, pipeline);
    return await withRedis(
      () => connectDelivery(config.redis, "an entity's changes and dead letters are kept there"),
      async (redis) => {
        const keys = deliveryKeys(config.redis.prefix);
        const dlq = createDeadLetterStore(redis, keys);
        const trace = await traceEntity({ config, redis, keys, dlq }, definition, key, runs);
        if (flag(args, 'json')) await writeJson(stdout, trace);
        else stdout.write(traceText(trace));
        return trace.deadLetters.length > 0 || rejectedSinceDelivery(trace) ? 1 : 0;
      },
    );
  },
};
