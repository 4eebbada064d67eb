import { isIP } from 'node:net';
import { UsageError } from '../../errors/index.js';
import { positiveIntOption, stringOption, type Command } from '../command.js';

/** Loopback only: 127.0.0.0/8, ::1, localhost. */
function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

export const serveCommand: Command = {
  name: 'serve',
  usage: 'serve [--host H] [--port P]',
  description: [
    'One long-running process that reads everything from Redis: run it beside any number of',
    'workers, on any machine; a restart loses nothing. Default 127.0.0.1:8787 (serve.host,',
    'serve.port). See docs/CONSOLE.md for the API, the metrics and the roles.',
    '',
    'Tokens: FERRY_VIEWER_TOKEN and FERRY_OPERATOR_TOKEN add one each; serve.tokens adds more',
    '({name, role: viewer|operator, token}). A viewer reads; an operator also cancels runs and',
    'pauses schedules, each action written to the audit trail. Without any token only /healthz,',
    '/readyz (and /metrics with serve.metricsPublic) answer, and a host other than loopback is',
    'refused.',
    '',
    'Started while Redis does not answer, it listens at once and says it waits for Redis:',
    '/healthz answers 200, /readyz and every other route 503 (FERRY_REDIS_UNAVAILABLE) until',
    'Redis answers. A Redis read behind a page or API route that takes longer than',
    'serve.redisTimeoutMs (default 5000) answers 503 FERRY_REDIS_UNAVAILABLE.',
    '',
    'SIGTERM or Ctrl-C closes it: requests in progress finish. Exit 0 then; 2 bad usage or config',
    '(a port in use, a non-loopback host without tokens).',
  ].join('\n'),
  options: {
    host: { type: 'string', placeholder: 'H', description: 'Address to listen on (serve.host).' },
    port: { type: 'string', placeholder: 'P', description: 'Port (serve.port; 0 picks one).' },
  },
  async run({ args, stderr, config: getConfig, logger: getLogger, startTracing, stopSignal }) {
    const { createRedis, redisWhere, logRedisState, waitForRedis } =
      await import('../../redis/index.js');
    const { buildServer } = await import('../../serve/index.js');
    const config = getConfig();
    const host = stringOption(args, 'host') ?? config.serve.host;
    const port =
      stringOption(args, 'port') === '0'
        ? 0
        : (positiveIntOption(args, 'port') ?? config.serve.port);
    if (config.serve.tokens.length === 0 && !isLoopback(host)) {
      throw new UsageError(
        `ferry serve will not listen on ${host} without a token: set FERRY_OPERATOR_TOKEN (and ` +
          'FERRY_VIEWER_TOKEN) or serve.tokens, or listen on 127.0.0.1.',
      );
    }
    await startTracing();
    const logger = getLogger();
    // It listens whether or not Redis answers: /healthz says the process lives, /readyz (and
    // every other route, 503 FERRY_REDIS_UNAVAILABLE) that Redis does not answer yet.
    const redis = createRedis(config.redis);
    const where = redisWhere(config.redis.url);
    const redisState = logRedisState(redis, logger, where);
    const app = await buildServer({ config, redis, logger });
    try {
      await app.listen({ host, port });
    } catch (error) {
      await app.close();
      redisState.stop();
      redis.disconnect();
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(
        `Cannot listen on ${host}:${port}: ${code ?? (error as Error).message}.`,
      );
    }
    const address = app.server.address();
    const shown =
      typeof address === 'object' && address ? `${host}:${address.port}` : `${host}:${port}`;
    stderr.write(`ferry serve: listening on http://${shown}; Ctrl-C or SIGTERM stops it.\n`);
    if (config.serve.tokens.length === 0) {
      stderr.write(
        'ferry serve: no token is configured, so the API answers 401: set FERRY_OPERATOR_TOKEN.\n',
      );
    }
    void waitForRedis(redis, {
      logger,
      where,
      need: 'the console reads everything from it (/readyz answers 503 until then)',
      signal: stopSignal,
    });
    if (!stopSignal.aborted) {
      await new Promise<void>((resolve) =>
        stopSignal.addEventListener('abort', () => resolve(), { once: true }),
      );
    }
    await app.close();
    redisState.stop();
    redis.disconnect();
    stderr.write('ferry serve: stopped.\n');
    return 0;
  },
};
