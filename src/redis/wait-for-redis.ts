/**
 * Long-running processes (`ferry worker`, `ferry serve`) start whether or not Redis answers: they
 * say once what they wait for, let the connection retry with capped backoff (connection.ts), and
 * log one line per change of state afterwards, never one per failed attempt or command.
 */
import type { Logger } from '../logging/index.js';
import type { RedisClient } from './connection.js';
import { isRedisConnectionError } from './redis-unavailable.js';

export interface RedisStateLog {
  /** Whether the connection answers now. */
  up(): boolean;
  stop(): void;
}

/**
 * Follows a connection's ups and downs: a warning when it goes (with the reason's code, never a
 * stack), an info line when it is back. `where` is host:port, never the URL (it may hold a password).
 */
export function logRedisState(redis: RedisClient, logger: Logger, where: string): RedisStateLog {
  let up = redis.status === 'ready';
  let reason: string | undefined;
  const onError = (error: Error): void => {
    reason = (error as NodeJS.ErrnoException).code ?? error.name;
  };
  const onDown = (): void => {
    if (!up) return;
    up = false;
    logger.warn(
      { redis: where, ...(reason ? { reason } : {}) },
      'Redis does not answer; reconnecting',
    );
  };
  const onReady = (): void => {
    if (up) return;
    up = true;
    reason = undefined;
    logger.info({ redis: where }, 'Redis answers');
  };
  redis.on('error', onError);
  redis.on('reconnecting', onDown);
  redis.on('ready', onReady);
  return {
    up: () => up,
    stop() {
      redis.off('error', onError);
      redis.off('reconnecting', onDown);
      redis.off('ready', onReady);
    },
  };
}

/**
 * Whether the connection's first attempt answers: true on `ready`, false on the error or close
 * that ends the attempt (the connection then retries on its own) or when `signal` aborts.
 */
function firstAttempt(redis: RedisClient, signal: AbortSignal): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  if (redis.status === 'end') return Promise.resolve(false);
  return new Promise((resolve) => {
    const settle = (answered: boolean) => (): void => {
      redis.off('ready', onReady);
      redis.off('error', onFailure);
      redis.off('close', onFailure);
      signal.removeEventListener('abort', onFailure);
      resolve(answered);
    };
    const onReady = settle(true);
    const onFailure = settle(false);
    redis.once('ready', onReady);
    redis.once('error', onFailure);
    redis.once('close', onFailure);
    signal.addEventListener('abort', onFailure, { once: true });
  });
}

/**
 * Resolves once `redis` answers PING; says once, when its first attempt does not answer, what the
 * process waits for (a Redis that answers at once is not waited for, so nothing is said). False
 * when `signal` aborted the wait (Ctrl-C, SIGTERM) first.
 */
export async function waitForRedis(
  redis: RedisClient,
  options: { logger: Logger; where: string; need: string; signal: AbortSignal },
): Promise<boolean> {
  const { logger, where, need, signal } = options;
  if (signal.aborted) return false;
  if (await firstAttempt(redis, signal)) return true;
  if (signal.aborted) return false;
  logger.warn(
    { redis: where },
    `waiting for Redis at ${where}: ${need}; retrying until it answers`,
  );
  const aborted = new Promise<false>((resolve) =>
    signal.addEventListener('abort', () => resolve(false), { once: true }),
  );
  // With maxRetriesPerRequest null the PING waits through the reconnects until one succeeds.
  const answered = redis.ping().then(
    () => true as const,
    () => false as const,
  );
  return await Promise.race([answered, aborted]);
}

/**
 * A BullMQ worker's `error` listener: a lost connection is logRedisState's to tell (once), so it
 * goes to debug with its code only; any other error is logged in full.
 */
export function onWorkerError(
  logger: Logger,
  message: string,
  fields: Record<string, unknown> = {},
): (error: Error) => void {
  return (error) => {
    if (isRedisConnectionError(error)) {
      logger.debug(
        { ...fields, reason: (error as NodeJS.ErrnoException).code ?? error.name },
        `${message} (Redis connection)`,
      );
    } else {
      logger.error({ ...fields, err: error }, message);
    }
  };
}
