import { UsageError } from '../../errors/index.js';
import { flag, JSON_OPTION, stringOption, writeJson, type Command } from '../command.js';
import { withRedis } from '../with-redis.js';

export const exportCommand: Command = {
  name: 'export',
  usage: 'export <pipeline> [--out DIR] [--since X] [--dry-run] [--json]',
  description: [
    'Runs an export pipeline (direction: export, docs/EXPORTS.md): reads its operation from the',
    "platform page by page, from after the export's cursor, writes the rows to one file in the",
    "target's format (a temporary name, synced, then renamed: a reader sees the whole file or",
    'none), and moves the cursor once the file is in place. Nothing new: no file, exit 0.',
    '',
    'Exactly once: a run that died between writing its file and moving the cursor is finished by',
    'the next run, which writes the same items into the same file name (no second file). One',
    'run per pipeline at a time (FERRY_RUN_ACTIVE). The run is listed by `ferry runs`.',
    '',
    'With --json: {runId, status, operation, records, items, files: [{path, records, sha256}],',
    'cursor: {before, after}, dryRun, recovered?, error?}. Exit codes: 0 the export succeeded',
    '(or had nothing new); 1 it failed (the platform refused or did not answer, an item could not',
    'be written, the file name is taken, another run is active): nothing was published and the',
    'cursor did not move; 2 bad usage or config (not an export pipeline, an operation outside the',
    'listing).',
    '',
    'Examples:',
    '  ferry export orders-export',
    '  ferry export orders-export --out /erp/inbox --json',
    '  ferry export orders-export --since 1200 --dry-run',
  ].join('\n'),
  options: {
    out: {
      type: 'string',
      placeholder: 'DIR',
      description: 'Write into this folder instead of target.folder.',
    },
    since: {
      type: 'string',
      placeholder: 'X',
      description:
        "Export the items whose cursor field is X or later, instead of those after the export's cursor.",
    },
    'dry-run': {
      type: 'boolean',
      description: 'Read and report what would be written: no file, the cursor not moved.',
    },
    ...JSON_OPTION,
  },
  positionals: [1, 1],
  async run({ args, stdout, config: getConfig, logger, stopSignal }) {
    const { exportText, runExport } = await import('../../export/index.js');
    const { connectState } = await import('../../state/index.js');
    const since = stringOption(args, 'since');
    if (since === '') throw new UsageError('--since takes a value of the cursor field.');
    const out = stringOption(args, 'out');
    const config = getConfig();
    return await withRedis(
      () => connectState(config.redis, 'an export keeps its cursor and records its runs there'),
      async (redis) => {
        const result = await runExport({
          config,
          redis,
          logger: logger(),
          pipeline: args.positionals[0] as string,
          ...(out !== undefined ? { out } : {}),
          ...(since !== undefined ? { since } : {}),
          dryRun: flag(args, 'dry-run'),
          trigger: 'cli',
          signal: stopSignal,
        });
        if (flag(args, 'json')) await writeJson(stdout, result);
        else stdout.write(exportText(result));
        return result.status === 'succeeded' ? 0 : 1;
      },
    );
  },
};
