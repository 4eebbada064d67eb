import { flag, JSON_OPTION, writeJson, type Command } from '../command.js';
import { withRedis } from '../with-redis.js';

export const resumeCommand: Command = {
  name: 'resume',
  usage: 'resume <runId> [--json]',
  description: [
    'For a run whose delivery is blocked: the platform refused delivery.breaker.threshold requests',
    'in a row as it refuses everyone (401 after renewing the credential, 403, 404 for a route, 405),',
    'so its jobs wait instead of dead-lettering every item. Once the cause is fixed (the',
    'credential, the interface settings) the run resumes by itself at the next probe (every',
    'delivery.breaker.probeSeconds); `ferry resume` sends again at once. If the platform still',
    'refuses, the run is blocked again after threshold requests. `ferry runs` shows why it is blocked.',
    '',
    'With --json: {runId, pipeline, status, blockedReason?}. Exit codes: 0 resumed; 1 the run is',
    'not blocked (FERRY_RUN_NOT_BLOCKED); 2 bad usage or config, or no such run.',
    '',
    'Examples:',
    '  ferry resume catalog-20261124T021500Z-1a2b',
  ].join('\n'),
  options: { ...JSON_OPTION },
  positionals: [1, 1],
  async run({ args, stdout, config: getConfig }) {
    const { connectDelivery } = await import('../../queue/index.js');
    const { cliActor, deliveryKeys, recordAudit } = await import('../../runs/index.js');
    const { resumeRun } = await import('../../orchestrate/index.js');
    const config = getConfig();
    return await withRedis(
      () => connectDelivery(config.redis, 'resuming a run changes its record and jobs there'),
      async (redis) => {
        const runId = args.positionals[0] as string;
        const keys = deliveryKeys(config.redis.prefix);
        const outcome = await resumeRun(redis, keys, runId);
        await recordAudit(redis, keys, { actor: cliActor(), action: 'run.resume', target: runId });
        if (flag(args, 'json')) await writeJson(stdout, outcome);
        else {
          stdout.write(
            `Resumed run ${runId} (${outcome.pipeline}): its jobs send again within seconds. ` +
              `Follow it with \`ferry runs --pipeline ${outcome.pipeline}\`.\n`,
          );
        }
        return 0;
      },
    );
  },
};
