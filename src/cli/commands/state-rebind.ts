import { flag, JSON_OPTION, stringOption, writeJson, type Command } from '../command.js';
import { onePlatformTarget, PLATFORM_OPTION } from '../pipeline-options.js';
import { withRedis } from '../with-redis.js';

/** What `ferry state rebind` did (or, with --dry-run, would do). */
interface Rebound {
  pipeline: string;
  /** The platform the state belonged to; null when it belonged to none yet. */
  from: string | null;
  to: string;
  changed: boolean;
  dryRun: boolean;
}

function reboundText(r: Rebound): string {
  if (!r.changed)
    return `The state of ${r.pipeline} belongs to ${r.to} already; nothing changed.\n`;
  const was = r.from === null ? 'no platform yet' : r.from;
  return r.dryRun
    ? `The state of ${r.pipeline} would move from ${was} to ${r.to}; dry run: nothing was written.\n`
    : `The state of ${r.pipeline} belongs to ${r.to} now (was ${was}); its runs go on from it.\n`;
}

export const stateRebindCommand: Command = {
  name: 'state rebind',
  usage: 'state rebind <pipeline> [--platform NAME] [--dry-run] [--json]',
  description: [
    "A pipeline's state belongs to the platform that confirmed it: its base URL, normalised",
    '(scheme, host, port, path). A plan or run against another base URL stops before planning',
    '(FERRY_STATE_OTHER_PLATFORM, exit 2). When it is the same platform at a new address (a new',
    'host name, a proxy), `ferry state rebind` keeps the state and binds it to the platform',
    'configured now (interface.baseUrl, FERRY_BASE_URL): the next run sends only what changed.',
    "Audited (the console's audit trail: state.rebind, who, the pipeline). When it is another",
    'platform, do not rebind: `ferry state rebuild <pipeline> --from-platform` reads what it holds,',
    '`ferry run <pipeline> --resend-all` sends it everything, or another FERRY_PREFIX keeps a state',
    'of its own.',
    '',
    'With --json: {pipeline, from, to, changed, dryRun}; from is null when the state belonged to no',
    'platform yet. Exit codes: 0 rebound, already bound there, or shown (--dry-run); 2 bad usage or',
    'config, or no such pipeline; 5 Redis could not be reached.',
    '',
    'Examples:',
    '  FERRY_BASE_URL=https://shop-api.example.com ferry state rebind catalog --dry-run',
    '  ferry state rebind catalog --json',
  ].join('\n'),
  options: {
    ...PLATFORM_OPTION,
    'dry-run': { type: 'boolean', description: 'Show what would change; write nothing.' },
    ...JSON_OPTION,
  },
  positionals: [1, 1],
  async run({ args, stdout, env, config: getConfig }) {
    const { loadPipeline } = await import('../../pipeline/index.js');
    const { platformConfig, splitPipelineName } = await import('../../config/index.js');
    const { bindStatePlatform, connectState, platformUrl, statePlatform } =
      await import('../../state/index.js');
    const { cliActor, deliveryKeys, recordAudit } = await import('../../runs/index.js');
    const given = getConfig();
    const pipeline = await onePlatformTarget(
      args.positionals[0] as string,
      given,
      stringOption(args, 'platform'),
    );
    const config = platformConfig(given, splitPipelineName(pipeline).platform);
    loadPipeline(pipeline, config);
    const dryRun = flag(args, 'dry-run');
    const prefix = config.redis.prefix;
    const rebound = await withRedis(
      () => connectState(config.redis, "the pipeline's state is kept there"),
      async (redis): Promise<Rebound> => {
        const to = platformUrl(config.interface);
        const from = (await statePlatform(redis, prefix, pipeline)) ?? null;
        const changed = from !== to;
        if (changed && !dryRun) {
          await bindStatePlatform(redis, prefix, pipeline, to);
          await recordAudit(redis, deliveryKeys(prefix), {
            actor: cliActor(env),
            action: 'state.rebind',
            target: pipeline,
            platform: splitPipelineName(pipeline).platform,
          });
        }
        return { pipeline, from, to, changed, dryRun };
      },
    );
    if (flag(args, 'json')) await writeJson(stdout, rebound);
    else stdout.write(reboundText(rebound));
    return 0;
  },
};
