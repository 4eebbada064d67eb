import type { ContractComparison } from '../../orchestrate/index.js';
import { UsageError } from '../../errors/index.js';
import { JSON_OPTION, stringOption, writeJson, type Command } from '../command.js';
import { platformScoped } from '../pipeline-options.js';
import { withRedis } from '../with-redis.js';
import { contractSource, comparisonText } from '../contract-text.js';

export const interfaceDiffCommand: Command = {
  name: 'interface diff',
  usage: 'interface diff [--to SRC] [--platform NAME] [--json]',
  description: [
    'Compares the pinned description of the platform (`ferry interface pull`) with the one it',
    'publishes now (--to, else interface.openapi / FERRY_OPENAPI) and classifies each change for',
    "what Ferry's import pipelines use: breaking (an operation they use removed or moved, a new",
    'required request property, a property they send removed, a type, enum or constraint narrowed,',
    'maxItems below the batch, a body of another shape, a new required parameter or security',
    'scheme) or not (new optional properties, new operations, descriptions). Each change is named',
    'by its JSON pointer in the description. Before every run Ferry makes the same comparison: a',
    "breaking change to the run's operations refuses the run. When the changes are understood",
    '(the pipeline or its bindings adapted), `ferry interface accept` pins the new description.',
    '',
    'With --json: {from: {sha256, version, source}, to: {sha256, version, source}, breaking: [{kind,',
    'operationId?, path, message}], nonBreaking: [...]}. Exit codes: 0 no breaking change; 1',
    'breaking changes; 2 nothing pinned, no description configured, or it cannot be read.',
  ].join('\n'),
  options: {
    to: {
      type: 'string',
      placeholder: 'SRC',
      description: 'The description to compare: a file or URL.',
    },
    platform: {
      type: 'string',
      placeholder: 'NAME',
      description: 'The platform whose description this is (docs/PLATFORMS.md). Default: default.',
    },

    ...JSON_OPTION,
  },
  async run({ args, stdout, config: getConfig, contractConfig, logger }) {
    const { compareWithPin } = await import('../../orchestrate/index.js');
    const { connectDelivery } = await import('../../queue/index.js');
    const { deliveryKeys } = await import('../../runs/index.js');
    const platform = stringOption(args, 'platform');
    const config =
      platform === undefined ? await contractConfig() : await platformScoped(getConfig(), platform);
    const source = await contractSource(config, stringOption(args, 'to'));
    const diff: ContractComparison | undefined = await withRedis(
      () => connectDelivery(config.redis, 'the pinned description is kept there'),
      (redis) =>
        compareWithPin(
          { config, redis, keys: deliveryKeys(config.redis.prefix), logger: logger() },
          source,
        ),
    );
    if (!diff) {
      throw new UsageError('Nothing is pinned: `ferry interface pull` pins the description first.');
    }
    if (args.values.json) await writeJson(stdout, diff);
    else stdout.write(comparisonText(diff));
    return diff.breaking.length > 0 ? 1 : 0;
  },
};
