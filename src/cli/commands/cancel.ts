import type { Writable } from 'node:stream';
import type { CancelOutcome } from '../../queue/index.js';
import { flag, JSON_OPTION, positiveIntOption, writeJson, type Command } from '../command.js';
import { CANCEL_TIMEOUT_S } from '../help-figures.js';
import { withRedis } from '../with-redis.js';

/** Progress lines while waiting for the run's jobs in flight: one when the count changes, or every 5 s. */
function waitingLines(stderr: Writable): (inFlight: number) => void {
  let last = -1;
  let lastAt = 0;
  return (inFlight) => {
    const now = Date.now();
    if (inFlight === last && now - lastAt < 5_000) return;
    last = inFlight;
    lastAt = now;
    stderr.write(`cancelling: ${inFlight} request(s) in flight; waiting for them to settle...\n`);
  };
}

async function outcomeText(o: CancelOutcome, timeoutS: number): Promise<string> {
  if (o.dryRun) {
    return (
      `Would cancel run ${o.runId} (${o.pipeline}, ${o.status}): ${o.unsettledJobs} job(s) not ` +
      `settled, ${o.inFlight} of them in flight now. Nothing was changed.\n`
    );
  }
  if (o.status === 'cancelling') {
    return (
      `Run ${o.runId} is cancelling: ${o.inFlight} request(s) in flight (after ${timeoutS} s, or ` +
      `you stopped the wait). Its jobs not started were dropped, those sending stop within ` +
      `delivery.progressEveryMs once their request out is answered, and the workers end the run ` +
      `once those requests settle (a dead worker's job comes back at BullMQ's stall check); ` +
      `follow it with \`ferry runs --pipeline ${o.pipeline}\`.\n`
    );
  }
  const { reportText } = await import('../../runs/index.js');
  return `Cancelled run ${o.runId}.\n${reportText(o.report)}`;
}

export const cancelCommand: Command = {
  name: 'cancel',
  usage: 'cancel <runId> [--dry-run] [--timeout S] [--json]',
  description: [
    'For a run that must not go on (a wrong export found mid-delivery, say), running or blocked.',
    'One call is enough. At once, no job of the run starts sending, and its jobs not started',
    '(stages not released, jobs queued or waiting for a retry) are dropped, their items counted',
    '`cancelled`; a job already sending stops within delivery.progressEveryMs (2 s), once its',
    'request out is answered, counting the rest `cancelled`, and what the platform confirmed is',
    'committed to state and counted, so the next run sends only what this one did not. When the',
    'last request in flight settles the run is `cancelled`, its pipeline is free and its report',
    'is written (as a finished run\'s); `ferry runs` shows "cancelling: N requests in flight" meanwhile.',
    '',
    'If requests are still in flight after --timeout seconds (default 120), the command exits 1 and',
    'the workers end the run once they settle (no second cancel needed). --dry-run shows what',
    'would be cancelled and changes nothing.',
    '',
    'With --json: {runId, pipeline, dryRun, status, unsettledJobs, inFlight, report}. Exit codes:',
    '0 cancelled (or a dry run); 1 the run already finished (FERRY_RUN_FINISHED) or jobs still in',
    'flight at the timeout; 2 bad usage or config, or no such run.',
    '',
    'Examples:',
    '  ferry cancel catalog-20261124T021500Z-1a2b --dry-run',
    '  ferry cancel catalog-20261124T021500Z-1a2b',
  ].join('\n'),
  options: {
    'dry-run': { type: 'boolean', description: 'Show what would be cancelled; change nothing.' },
    timeout: {
      type: 'string',
      placeholder: 'S',
      description: `Seconds to wait for the run's jobs in flight (default ${CANCEL_TIMEOUT_S}).`,
    },
    ...JSON_OPTION,
  },
  positionals: [1, 1],
  async run({ args, stdout, stderr, config: getConfig, logger, stopSignal }) {
    const { connectDelivery, cancelRun } = await import('../../queue/index.js');
    const { deliveryKeys } = await import('../../runs/index.js');
    const timeoutS = positiveIntOption(args, 'timeout') ?? CANCEL_TIMEOUT_S;
    const config = getConfig();
    return await withRedis(
      () =>
        connectDelivery(config.redis, 'cancelling a run changes its record and queued jobs there'),
      async (redis) => {
        const keys = deliveryKeys(config.redis.prefix);
        const outcome = await cancelRun({
          redis,
          keys,
          notify: { config, redis, keys, logger: logger() },
          reportsDir: config.delivery.reportsDir,
          runId: args.positionals[0] as string,
          dryRun: flag(args, 'dry-run'),
          timeoutMs: timeoutS * 1000,
          onWaiting: waitingLines(stderr),
          signal: stopSignal,
        });
        if (flag(args, 'json')) await writeJson(stdout, outcome);
        else stdout.write(await outcomeText(outcome, timeoutS));
        return outcome.status === 'cancelling' && !outcome.dryRun ? 1 : 0;
      },
    );
  },
};
