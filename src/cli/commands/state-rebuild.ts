import { counted, durationText } from '../../base/index.js';
import { UsageError } from '../../errors/index.js';
import type { RebuildResult } from '../../reconcile/index.js';
import {
  flag,
  JSON_OPTION,
  positiveIntOption,
  stringList,
  stringOption,
  writeJson,
  type Command,
} from '../command.js';
import {
  LOOKUP_OPTION,
  lookupFiles,
  onePlatformTarget,
  PLATFORM_OPTION,
  sourceOf,
} from '../pipeline-options.js';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTION } from './reconcile.js';
import { withRedis } from '../with-redis.js';

function rebuildText(result: RebuildResult): string {
  const verb = result.dryRun ? 'would hold' : 'holds';
  const lines = [
    `State of ${result.pipeline} ${verb} ${result.entities} entities rebuilt ` +
      `(${counted(result.requests, 'request')}, ${durationText(result.seconds)})` +
      (result.dryRun ? '; dry run: nothing was written.' : '.'),
  ];
  for (const r of result.resources) {
    lines.push(
      `  ${r.resource} from the ${r.from}: ${r.entities} entities, ${r.written} entries written` +
        (r.deleted > 0 ? `, ${r.deleted} the platform lacks marked deleted` : ''),
    );
  }
  for (const n of result.notRebuilt) lines.push(`  ${n.resource}: not rebuilt (${n.reason})`);
  if (result.dataLossHandled) {
    lines.push(`  Redis had lost its data: runs of ${result.pipeline} go on as usual again.`);
  }
  return `${lines.join('\n')}\n`;
}

export const stateRebuildCommand: Command = {
  name: 'state rebuild',
  usage:
    'state rebuild <pipeline> [--platform NAME] --from-platform [--delivered-file F] [--lookup NAME=PATH]... [--page-size N] [--dry-run] [--json]',
  description: [
    "Rebuilds a pipeline's lost state (Redis lost its data, the state keys were removed) from what",
    'the platform holds, so that the next run sends only what really changed instead of the whole',
    'catalog. Each item of the listing (products.get, stores.get) is recorded as delivered with',
    'the hash of its payload; an entity state holds that the platform lacks is recorded as',
    'deleted. Resources no operation reads (categories, prices) cannot come from the platform:',
    '--delivered-file F rebuilds them from the export last delivered (trusting that the platform',
    'holds what it says); without it they are left out and the next run sends them again.',
    "After a loss of Redis's data, the pipeline's runs no longer stop for it. docs/RECONCILE.md.",
    '',
    'With --json: {pipeline, entities, resources: [{resource, from, entities, written, deleted}],',
    'notRebuilt, requests, dryRun, dataLossHandled?, seconds}. Exit codes: 0 rebuilt (or, with',
    '--dry-run, shown); 1 another run holds the pipeline, or the platform failed; 2 bad usage or',
    'config, or the listing has no read operation for a resource the pipeline writes.',
    '',
    'Examples:',
    '  ferry state rebuild stores --from-platform',
    '  ferry state rebuild catalog --from-platform --delivered-file archive/items-0312.csv --json',
  ].join('\n'),
  options: {
    ...PLATFORM_OPTION,
    'from-platform': {
      type: 'boolean',
      description: 'Rebuild from what the platform holds (the only way there is; required).',
    },
    'delivered-file': {
      type: 'string',
      placeholder: 'F',
      description: 'The export last delivered: rebuilds the resources the platform cannot list.',
    },
    ...LOOKUP_OPTION,
    ...PAGE_SIZE_OPTION,
    'dry-run': { type: 'boolean', description: 'Count what would be written; write nothing.' },
    ...JSON_OPTION,
  },
  positionals: [1, 1],
  async run({ args, stdout, config: getConfig, logger, stopSignal }) {
    const { createInterfaceClient } = await import('../../interface/index.js');
    const { loadPipeline } = await import('../../pipeline/index.js');
    const { connectState } = await import('../../state/index.js');
    const { rebuildState } = await import('../../reconcile/index.js');
    const { pipelineConfig, deliveryKeys } = await import('../../runs/index.js');
    if (!flag(args, 'from-platform')) {
      throw new UsageError('state rebuild needs --from-platform (what the state is rebuilt from).');
    }
    const given = getConfig();
    const target = await onePlatformTarget(
      args.positionals[0] as string,
      given,
      stringOption(args, 'platform'),
    );
    const delivered = await sourceOf(stringOption(args, 'delivered-file'));
    return await withRedis(
      () => connectState(given.redis, 'the sync state is rebuilt there'),
      async (redis) => {
        // It reads the platform by the contract's bindings, as a run sends by them.
        const keys = deliveryKeys(given.redis.prefix);
        const config = await pipelineConfig(given, target, redis, keys);
        const definition = loadPipeline(target, config);
        const client = createInterfaceClient(config.interface, {
          logger: logger(),
          ...(config.platform ? { platform: config.platform } : {}),
        });
        try {
          const result = await rebuildState({
            config,
            redis,
            client,
            definition,
            pageSize: positiveIntOption(args, 'page-size') ?? DEFAULT_PAGE_SIZE,
            dryRun: flag(args, 'dry-run'),
            ...(delivered ? { deliveredFile: delivered } : {}),
            lookupFiles: lookupFiles(stringList(args, 'lookup')),
            signal: stopSignal,
          });
          if (flag(args, 'json')) await writeJson(stdout, result);
          else stdout.write(rebuildText(result));
          return 0;
        } finally {
          await client.close();
        }
      },
    );
  },
};
