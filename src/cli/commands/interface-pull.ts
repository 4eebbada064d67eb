import { flag, JSON_OPTION, stringOption, writeJson, type Command } from '../command.js';
import { platformScoped } from '../pipeline-options.js';
import { contractSource, pinText } from '../contract-text.js';
import { withRedis } from '../with-redis.js';

/** `ferry interface pull` and `ferry interface accept`: one reads, one replaces. */
export function pinCommand(name: 'pull' | 'accept'): Command {
  const accept = name === 'accept';
  return {
    name: `interface ${name}`,
    usage: accept
      ? 'interface accept [--openapi SRC] [--platform NAME] [--dry-run] [--json]'
      : 'interface pull [--openapi SRC] [--platform NAME] [--json]',
    description: (accept
      ? [
          "Pins the platform's description as it is now (--openapi, else interface.openapi /",
          'FERRY_OPENAPI) in place of the pinned one, once `ferry interface diff` showed its changes',
          'and the pipelines or bindings were adapted: runs are no longer refused for them. The',
          "action is audited (the console's audit trail: contract.accept, who, the new sha256).",
          '--dry-run shows what would be pinned and the changes it accepts, and changes nothing.',
          '',
          'With --json: {pin: {sha256, source, version?, title?, validators, pulledAt, pulledBy},',
          'previous: {from, to, breaking, nonBreaking} | null, dryRun, written}. Exit codes: 0 pinned',
          '(or a dry run); 2 no description configured, or it cannot be read or is not OpenAPI.',
        ]
      : [
          "Reads the platform's description (--openapi, else interface.openapi / FERRY_OPENAPI) and",
          "pins it in Redis under the installation's prefix as the accepted contract: its text,",
          "sha256, source, a URL's ETag and Last-Modified, when and by whom (audited:",
          'contract.pull). From then on, before every run (CLI, schedule, HTTP import) Ferry reads the',
          'description again (a URL conditionally: a 304 costs nothing) and compares it with the',
          "pin: breaking changes to the run's operations refuse it (FERRY_CONTRACT_BREAKING), other",
          'changes are recorded on the run. A pin that differs from the description now is kept:',
          'see `ferry interface diff`, then `ferry interface accept`.',
          '',
          'With --json: {pin, previous: {from, to, breaking, nonBreaking} | null, dryRun, written}.',
          'Exit codes: 0 pinned (or already pinned); 1 a different description is pinned (nothing',
          'changed); 2 no description configured, or it cannot be read or is not OpenAPI.',
        ]
    ).join('\n'),
    options: {
      openapi: {
        type: 'string',
        placeholder: 'SRC',
        description: 'The description: a file or URL.',
      },
      platform: {
        type: 'string',
        placeholder: 'NAME',
        description:
          'The platform whose description this is (docs/PLATFORMS.md). Default: default.',
      },

      ...(accept
        ? {
            'dry-run': {
              type: 'boolean' as const,
              description: 'Show what would be pinned; change nothing.',
            },
          }
        : {}),
      ...JSON_OPTION,
    },
    async run({ args, stdout, env, config: getConfig, contractConfig, logger }) {
      const { pinContract } = await import('../../orchestrate/index.js');
      const { connectDelivery } = await import('../../queue/index.js');
      const { cliActor, deliveryKeys, recordAudit } = await import('../../runs/index.js');
      const platform = stringOption(args, 'platform');
      const config =
        platform === undefined
          ? await contractConfig()
          : await platformScoped(getConfig(), platform);
      const source = await contractSource(config, stringOption(args, 'openapi'));
      const by = cliActor(env);
      const dryRun = flag(args, 'dry-run');
      const outcome = await withRedis(
        () => connectDelivery(config.redis, 'the pinned description is kept there'),
        async (redis) => {
          const keys = deliveryKeys(config.redis.prefix);
          const ctx = { config, redis, keys, logger: logger() };
          const done = await pinContract(ctx, { source, by, dryRun, replace: accept });
          if (done.written) {
            await recordAudit(redis, keys, {
              actor: by,
              action: `contract.${name}`,
              target: done.pin.sha256,
              platform: config.platform ?? 'default',
            });
          }
          return done;
        },
      );
      if (flag(args, 'json')) await writeJson(stdout, outcome);
      else stdout.write(pinText(outcome));
      return outcome.written || outcome.dryRun ? 0 : 1;
    },
  };
}

export const interfacePullCommand = pinCommand('pull');
