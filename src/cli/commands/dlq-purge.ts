import { groupBy } from '../../base/index.js';
import type { DeadLetterSelection } from '../../queue/index.js';
import { flag, JSON_OPTION, stringOption, writeJson, type Command } from '../command.js';
import { withRedis } from '../with-redis.js';

export const dlqPurgeCommand: Command = {
  name: 'dlq purge',
  usage: 'dlq purge <ID>... | --run R | --all [--dry-run] [--json]',
  description: [
    'Removes the selected entries; their items stay undelivered (the next run of the pipeline',
    'plans them again, since state was never advanced for them). --dry-run only counts them.',
    'With --json: {dryRun, purged, ids}. Exit 0; 2 bad usage or an unknown id.',
  ].join('\n'),
  options: {
    run: { type: 'string', placeholder: 'R', description: 'The dead letters of this run.' },
    all: { type: 'boolean', description: 'Every dead letter.' },
    'dry-run': { type: 'boolean', description: 'Count what would be purged; delete nothing.' },
    ...JSON_OPTION,
  },
  positionals: [0, 1000],
  async run({ args, stdout, config: getConfig }) {
    const { connectDelivery, checkSelection, selectDeadLetters } =
      await import('../../queue/index.js');
    const { cliActor, createDeadLetterStore, deliveryKeys, recordAudit } =
      await import('../../runs/index.js');
    const { splitPipelineName } = await import('../../config/index.js');
    const selection: DeadLetterSelection = {};
    if (args.positionals.length > 0) selection.ids = args.positionals;
    const run = stringOption(args, 'run');
    if (run !== undefined) selection.runId = run;
    if (flag(args, 'all')) selection.all = true;
    checkSelection(selection, 'dlq purge');
    const dryRun = flag(args, 'dry-run');
    const config = getConfig();
    return await withRedis(
      () => connectDelivery(config.redis, 'the dead letters are kept there'),
      async (redis) => {
        const keys = deliveryKeys(config.redis.prefix);
        const dlq = createDeadLetterStore(redis, keys);
        const selected = await selectDeadLetters(dlq, selection);
        const ids = selected.map((e) => e.id);
        const purged = dryRun ? ids.length : await dlq.remove(ids);
        if (!dryRun && purged > 0) {
          // One entry per platform, as the console writes them (each platform's audit its own).
          const byPlatform = groupBy(selected, (e) => splitPipelineName(e.pipeline).platform);
          for (const [platform, entries] of byPlatform) {
            await recordAudit(redis, keys, {
              actor: cliActor(),
              action: 'dead-letter.purge',
              target: entries.map((e) => e.id).join(','),
              platform,
            });
          }
        }
        if (flag(args, 'json')) await writeJson(stdout, { dryRun, purged, ids });
        else
          stdout.write(
            dryRun
              ? `Would purge ${purged} dead letter(s).\n`
              : `Purged ${purged} dead letter(s).\n`,
          );
        return 0;
      },
    );
  },
};
