import { counted, durationText } from '../../base/index.js';
import { UsageError } from '../../errors/index.js';
import type { ReconcileDocument } from '../../reconcile/index.js';
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
  allowDeletes,
  onePlatformTarget,
  PLATFORM_OPTION,
  FILE_OPTION,
  LOOKUP_OPTION,
  lookupFiles,
  sourceOf,
} from '../pipeline-options.js';
import { withRedis } from '../with-redis.js';

export const DEFAULT_PAGE_SIZE = 500;

export const PAGE_SIZE_OPTION = {
  'page-size': {
    type: 'string' as const,
    placeholder: 'N',
    description: `Items per page asked of the platform's listing (default ${DEFAULT_PAGE_SIZE}).`,
  },
};

function reconcileText(doc: ReconcileDocument): string {
  const lines = [
    `Reconciled ${doc.pipeline}: ${doc.checked} entities checked, ${doc.missing} missing on the ` +
      `platform, ${doc.different} different, ${doc.unknown} unknown to Ferry ` +
      `(${counted(doc.requests, 'request')}, ${durationText(doc.seconds)}).`,
  ];
  for (const r of doc.resources) {
    lines.push(
      `  ${r.resource} (${r.operationId}): ${r.checked} checked, ${r.missing} missing, ` +
        `${r.different} different, ${r.unknown} unknown` +
        (r.withoutKey > 0 ? `, ${r.withoutKey} items without a key ignored` : ''),
    );
  }
  for (const u of doc.unchecked) lines.push(`  ${u.resource}: not checked (${u.reason})`);
  if (doc.samples.length > 0) lines.push('  samples:');
  for (const s of doc.samples) {
    const fields = s.fields ? `: ${s.fields.join(', ') || '(none: the source agrees now)'}` : '';
    lines.push(`    ${s.kind.padEnd(9)} ${s.resource} ${s.key}${fields}`);
  }
  if (doc.source && 'error' in doc.source) {
    lines.push(`  fields not named from the source: ${doc.source.error}`);
  }
  if (doc.csv) lines.push(`  differences: ${doc.csv}`);
  const repair = doc.repair;
  if (repair?.plan) {
    const ops = Object.entries(repair.plan.operations)
      .map(([id, c]) => `${id} ${counted(c.items, 'item')} in ${counted(c.requests, 'request')}`)
      .join(', ');
    lines.push(`  repair ${repair.dryRun ? 'would send' : 'sends'}: ${ops || 'nothing'}`);
  }
  if (repair?.runId) lines.push(`  repair run ${repair.runId}: ${repair.status}`);
  if (repair?.error) lines.push(`  repair stopped, nothing sent: ${repair.error.message}`);
  return `${lines.join('\n')}\n`;
}

export const reconcileCommand: Command = {
  name: 'reconcile',
  usage:
    'reconcile <pipeline> [--platform NAME] [--repair [--dry-run] [--no-wait] [--allow-deletes N|all]] [--file F] [--lookup NAME=PATH]... [--page-size N] [--json]',
  description: [
    "Compares what the platform holds for the pipeline's resources (products.get, stores.get,",
    "page by page) with Ferry's committed state, entity by entity: missing on the platform,",
    'present but different (with the fields that differ), present but unknown to Ferry. Prints the',
    'counts and a sample, and writes every difference to a CSV under delivery.reportsDir. The',
    "fields are named by comparing the platform's item with what the pipeline's source (or --file)",
    'gives now. Resources no operation reads (categories, prices) are named as not checked.',
    '',
    "--repair plans the changes that restore the ERP's truth and delivers them as a run of the",
    'pipeline, through the normal queue and guards (a repair that would delete more than the',
    'mass-delete guard allows stops before anything changes): what the platform lacks or holds',
    'otherwise is sent from the source; what it holds unknown to Ferry is deleted when the pipeline',
    'deletes by absence and its source lacks it. It waits for the run with a worker in this process',
    "unless --no-wait. --dry-run shows the repair's plan and changes nothing. docs/RECONCILE.md.",
    '',
    'With --json: {pipeline, checked, missing, different, unknown, samples: [{resource, key, kind,',
    'fields?}], repairRunId?, resources, unchecked, csv?, requests, seconds, repair?}. Exit codes:',
    '0 no drift; 1 drift found (repaired or not); 2 bad usage or config, or the listing has no read',
    'operation for a resource the pipeline writes (listing B has no products.get).',
    '',
    'Examples:',
    '  ferry reconcile catalog',
    '  ferry reconcile catalog --repair --dry-run --json',
  ].join('\n'),
  options: {
    ...PLATFORM_OPTION,
    repair: { type: 'boolean', description: "Deliver the changes that restore the ERP's truth." },
    'dry-run': { type: 'boolean', description: 'With --repair: show its plan; change nothing.' },
    'no-wait': {
      type: 'boolean',
      description: 'With --repair: leave the run to `ferry worker`s instead of following it.',
    },
    'allow-deletes': {
      type: 'string',
      placeholder: 'N|all',
      description: 'With --repair: let it delete up to N entities (or all) past the guard.',
    },
    ...FILE_OPTION,
    ...LOOKUP_OPTION,
    ...PAGE_SIZE_OPTION,
    ...JSON_OPTION,
  },
  positionals: [1, 1],
  async run({ args, stdout, stderr, config: getConfig, logger, stopSignal }) {
    const { loadPipeline } = await import('../../pipeline/index.js');
    const { connectState } = await import('../../state/index.js');
    const { hasDrift, reconcilePipeline } = await import('../../reconcile/index.js');
    const { pipelineConfig, deliveryKeys } = await import('../../runs/index.js');
    const repair = flag(args, 'repair');
    for (const name of ['dry-run', 'no-wait']) {
      if (flag(args, name) && !repair) throw new UsageError(`--${name} goes with --repair.`);
    }
    if (stringOption(args, 'allow-deletes') !== undefined && !repair) {
      throw new UsageError('--allow-deletes goes with --repair.');
    }
    const given = getConfig();
    const target = await onePlatformTarget(
      args.positionals[0] as string,
      given,
      stringOption(args, 'platform'),
    );
    const file = stringOption(args, 'file');
    const lookups = lookupFiles(stringList(args, 'lookup'));
    const pageSize = positiveIntOption(args, 'page-size') ?? DEFAULT_PAGE_SIZE;
    return await withRedis(
      () =>
        connectState(
          given.redis,
          'reconciling compares the platform with the sync state kept there',
        ),
      async (redis) => {
        // It reads, plans and repairs by the contract's bindings, as a run does.
        const keys = deliveryKeys(given.redis.prefix);
        const config = await pipelineConfig(given, target, redis, keys);
        const definition = loadPipeline(target, config);
        const source = await sourceOf(file, definition.source);
        const doc = await reconcilePipeline({
          config,
          redis,
          logger: logger(),
          definition,
          pageSize,
          ...(source ? { source, sourceName: file } : {}),
          lookupFiles: lookups,
          ...(repair
            ? {
                repair: {
                  dryRun: flag(args, 'dry-run'),
                  wait: !flag(args, 'no-wait'),
                  allowDeletes: allowDeletes(stringOption(args, 'allow-deletes')),
                  progress: stderr,
                  installation: given,
                },
              }
            : {}),
          signal: stopSignal,
        });
        if (flag(args, 'json')) await writeJson(stdout, doc);
        else stdout.write(reconcileText(doc));
        return hasDrift(doc) ? 1 : 0;
      },
    );
  },
};
