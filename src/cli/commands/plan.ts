import type { Writable } from 'node:stream';
import { stringifyExact } from '../../base/index.js';
import type { SourceSpec } from '../../pipeline/index.js';
import { ItemSpool } from '../item-spool.js';
import {
  flag,
  JSON_OPTION,
  stringList,
  stringOption,
  writeJson,
  type Command,
} from '../command.js';
import {
  allowDeletes,
  PLATFORM_OPTION,
  FILE_OPTION,
  LOOKUP_OPTION,
  lookupFiles,
  onePlatformTarget,
  sourceOf,
} from '../pipeline-options.js';
import { withRedis } from '../with-redis.js';

async function describeSource(spec: SourceSpec): Promise<string> {
  const { remoteWhere, urlName } = await import('../../../connectors/index.js');
  const { displayPath } = await import('../../pipeline/index.js');
  if ('file' in spec) return spec.name ?? displayPath(spec.file);
  if ('folder' in spec) return `${displayPath(spec.folder)}/${spec.pattern ?? '*'}`;
  if ('sftp' in spec || 's3' in spec) return remoteWhere(spec);
  if (!('url' in spec)) return 'stdin';
  // Never show credentials or query parameters (they may carry tokens).
  return urlName(new URL(spec.url));
}

export const planCommand: Command = {
  name: 'plan',
  usage:
    'plan <pipeline> [--platform NAME] [--file F] [--lookup NAME=PATH]... [--json] [--show-items] [--allow-deletes N|all]',
  description: [
    'Reads the file through the pipeline (config/pipelines/<pipeline>.yaml), maps and checks each',
    'record, compares the entities with the sync state in Redis and prints the plan: per operation',
    'the items and requests, the deletes, and the rejected records with their lines. A plan reads',
    'state and never changes it; nothing is sent.',
    'With --json: {pipeline, rows, operations: {id: {items, requests}}, deletes, errors: [{file,',
    'line, field, path?, message}], unchanged, version, guards?: [{guard, field, resource, count,',
    'of, limit, tripped, reason, samples: [{resource, key, field, old, new}]}], guardsTripped?,',
    'prices?: {changed, requests}, items?: [{operationId, pathParams, payload}]}; `path`',
    'is the JSON pointer in the payload when it broke the request schema of the description',
    '(interface.openapi). `guards` lists every value guard of the pipeline (docs/PIPELINES.md),',
    'each measured over the resource its field belongs to; old values are what Ferry last',
    'delivered. `prices` (also a line of the summary and of the run report): the changed prices and',
    'the requests that carry them, i.e. requests per changed price (docs/DELIVERY.md, Prices in',
    'product batches).',
    '',
    'File lookups (docs/PIPELINES.md) are read first; --lookup NAME=PATH reads another file for one',
    'plan. A lookup file that is missing stops the plan before anything else (exit 2).',
    '',
    'Exit codes: 0 planned, every record accepted; 1 some records were rejected, or the mass-delete',
    'guard stopped the plan (allow it for one run with --allow-deletes N), or a lookup file holds a',
    'repeated key or unreadable records, or a value guard would stop the run; 2 bad usage or config,',
    'a missing lookup file or column, or',
    "the platform's description changed since it was pinned in a way that breaks the pipeline",
    "(FERRY_CONTRACT_BREAKING: see `ferry interface diff`), or the pipeline's state belongs to",
    'another platform than the one configured (FERRY_STATE_OTHER_PLATFORM: see `ferry state rebind`);',
    '4 stopped by Ctrl-C or SIGTERM before the end of the input (nothing was planned).',
    '',
    'A pipeline that fans out to several platforms (docs/PLATFORMS.md) is planned one platform at',
    "a time, against that platform's state: --platform NAME (or the name catalog@north).",
    '',
    'Examples:',
    '  ferry plan catalog --file examples/items.csv',
    '  ferry plan users --json --show-items',
    '  ferry plan catalog --platform north --json',
  ].join('\n'),
  options: {
    ...PLATFORM_OPTION,
    ...FILE_OPTION,
    ...LOOKUP_OPTION,
    'show-items': {
      type: 'boolean',
      description: 'List every planned item (operationId, pathParams, payload).',
    },
    'allow-deletes': {
      type: 'string',
      placeholder: 'N|all',
      description: 'Let this plan delete up to N entities (or all) past the mass-delete guard.',
    },
    ...JSON_OPTION,
  },
  positionals: [1, 1],
  async run({ args, stdout, stderr, config, logger, stopSignal }) {
    const {
      loadPipeline,
      boundHeapGrowth,
      planPipeline,
      planJson,
      planSummary,
      requestItems,
      sourceSpecOf,
    } = await import('../../pipeline/index.js');
    const { checkStatePlatform, connectState, platformUrl } = await import('../../state/index.js');
    const { checkPlanContract } = await import('../../orchestrate/index.js');
    const { deliveryKeys, lastSyncRows, pipelineConfig } = await import('../../runs/index.js');
    const json = flag(args, 'json');
    const showItems = flag(args, 'show-items');
    const allow = allowDeletes(stringOption(args, 'allow-deletes'));
    const given = config();
    const lookups = lookupFiles(stringList(args, 'lookup'));
    // A mistyped pipeline is a usage error (2, with a guess) before Redis is needed.
    const target = await onePlatformTarget(
      args.positionals[0] as string,
      given,
      stringOption(args, 'platform'),
    );
    loadPipeline(target, given);
    return await withRedis(
      () => connectState(given.redis),
      async (redis) => {
        boundHeapGrowth();
        const keys = deliveryKeys(given.redis.prefix);
        // The plan a run would make: by the pinned description's bindings where there is a pin.
        const config = await pipelineConfig(given, target, redis, keys);
        const definition = loadPipeline(target, config);
        const sourceOverride = await sourceOf(stringOption(args, 'file'), definition.source);
        await checkPlanContract({ config, redis, keys, logger: logger() }, definition);
        // State of another platform would plan nothing for what that one never received.
        await checkStatePlatform(
          redis,
          config.redis.prefix,
          definition.name,
          platformUrl(config.interface),
        );
        // --show-items: the items go to disk as they are planned, and out after the figures.
        const spool = showItems
          ? json
            ? new ItemSpool(
                (item) => `\n    ${stringifyExact(item, 2).replace(/\n/g, '\n    ')}`,
                ',',
              )
            : new ItemSpool((item) => `${JSON.stringify(item)}\n`, '')
          : undefined;
        try {
          const plan = await planPipeline({
            definition,
            ...(sourceOverride ? { sourceOverride } : {}),
            lookupFiles: lookups,
            redis,
            prefix: config.redis.prefix,
            config,
            allowDeletes: allow,
            ...(definition.guards?.rows
              ? {
                  lastRows: await lastSyncRows(
                    redis,
                    deliveryKeys(config.redis.prefix),
                    definition.name,
                  ),
                }
              : {}),
            ...(spool
              ? { onRequest: (stage, request) => spool.add(stage, requestItems(request)) }
              : {}),
            retainRequests: false,
            signal: stopSignal,
            onProgress: ({ phase, rows, errors }) => {
              if (phase === 'reading') stderr.write(`read ${rows} rows (${errors} rejected)...\n`);
            },
          });
          const items = spool && {
            name: 'items',
            count: spool.count,
            write: (out: Writable) => spool.copyTo(out),
          };
          if (json) await writeJson(stdout, planJson(plan), items);
          else {
            stdout.write(
              planSummary(plan, await describeSource(sourceSpecOf(definition, sourceOverride))),
            );
            await items?.write(stdout);
          }
          return plan.errors.length > 0 || plan.guards?.tripped ? 1 : 0;
        } catch (error) {
          if (!stopSignal.aborted) throw error;
          stderr.write('ferry plan: stopped before the end of the input; nothing was planned.\n');
          return 4;
        } finally {
          spool?.remove();
        }
      },
    );
  },
};
