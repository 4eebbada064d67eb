import { UsageError } from '../../errors/index.js';
import type { Lane } from '../../runs/index.js';
import { flag, positiveIntOption, stringList, type Command } from '../command.js';

export const workerCommand: Command = {
  name: 'worker',
  usage: 'worker [--concurrency N] [--lane bulk|interactive]... [--no-schedules]',
  description: [
    'Takes delivery jobs from the queues of both lanes (or the lanes given) and delivers them to',
    'the interface, with retries, the shared rate budget and dead letters. Runs until SIGTERM or',
    'SIGINT (Ctrl-C): then it takes no new job, hands the rest of each active job back to the queue',
    'once the request it has out is answered (within delivery.shutdownTimeoutMs) and exits 0. Jobs',
    'of a worker that dies without stopping (SIGKILL,',
    'a lost host) are taken over by the other workers once their lock expires',
    '(delivery.lockDurationMs, checked every delivery.stalledIntervalMs).',
    '',
    'It also runs the pipelines that have a `schedule:` (docs/SCHEDULES.md): at start it brings the',
    "schedules in Redis in step with the pipeline files, then starts each tick's run; whatever the",
    'number of workers, each tick starts one run. --no-schedules leaves the ticks to other workers.',
    "And it calls the pipelines' webhooks (`notify:`) when runs end, retrying those that fail.",
    '',
    'Started while Redis does not answer, it says once that it waits for it and begins when it',
    'answers; while Redis is away later it logs one line when it goes and one when it is back.',
    '',
    'Exit codes: 0 stopped (jobs still running at the shutdown timeout go back to the queue for',
    'the other workers); 2 bad usage or config.',
  ].join('\n'),
  options: {
    concurrency: {
      type: 'string',
      placeholder: 'N',
      description: 'Jobs per lane at once (default delivery.concurrency).',
    },
    lane: {
      type: 'string',
      multiple: true,
      placeholder: 'LANE',
      description: 'Only this lane (bulk or interactive).',
    },
    'no-schedules': {
      type: 'boolean',
      description: "Deliver only: leave the schedules' ticks to other workers.",
    },
  },
  async run({ args, stderr, contractConfig, logger: getLogger, startTracing, stopSignal }) {
    const { createRedis, redisWhere, logRedisState, waitForRedis } =
      await import('../../redis/index.js');
    const { LANES, startNotifyWorker } = await import('../../runs/index.js');
    const { startDeliveryWorker } = await import('../../queue/index.js');
    const { startScheduleWorker } = await import('../../schedules/index.js');
    const concurrency = positiveIntOption(args, 'concurrency');
    const lanes = stringList(args, 'lane');
    for (const lane of lanes) {
      if (!LANES.includes(lane as Lane)) {
        throw new UsageError(`--lane must be ${LANES.join(' or ')}, got "${lane}".`);
      }
    }
    const config = await contractConfig();
    await startTracing();
    const logger = getLogger();
    // Started before Redis (a compose file, an orchestrator): wait for it rather than crash-loop.
    const where = redisWhere(config.redis.url);
    const watch = createRedis(config.redis);
    const redisState = logRedisState(watch, logger, where);
    const ready = await waitForRedis(watch, {
      logger,
      where,
      need: 'the jobs it delivers and the schedules it runs are kept there',
      signal: stopSignal,
    });
    if (!ready) {
      redisState.stop();
      watch.disconnect();
      stderr.write('ferry worker: stopped before Redis answered.\n');
      return 0;
    }
    const worker = await startDeliveryWorker({
      config,
      logger,
      ...(concurrency ? { concurrency } : {}),
      ...(lanes.length > 0 ? { lanes: lanes as Lane[] } : {}),
    });
    const schedules = flag(args, 'no-schedules')
      ? undefined
      : await startScheduleWorker({ config, logger });
    const notifications = startNotifyWorker({ config, logger });
    stderr.write(
      `ferry worker: delivering (${lanes.length > 0 ? lanes.join(', ') : LANES.join(', ')}); ` +
        'Ctrl-C or SIGTERM stops it gracefully.\n',
    );
    if (!stopSignal.aborted) {
      await new Promise<void>((resolve) =>
        stopSignal.addEventListener('abort', () => resolve(), { once: true }),
      );
    }
    stderr.write(`ferry worker: stopping; letting ${worker.active()} active job(s) finish...\n`);
    await schedules?.close();
    await notifications.close();
    const drained = await worker.close();
    redisState.stop();
    watch.disconnect();
    stderr.write(
      drained
        ? 'ferry worker: stopped.\n'
        : 'ferry worker: stopped at the shutdown timeout; its unfinished jobs go back to the queue.\n',
    );
    return 0;
  },
};
