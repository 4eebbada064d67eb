/**
 * Redis does not answer. A one-shot command fails at once with exit code 5 ("try again later"),
 * distinct from 1 (records rejected or dead-lettered), naming what the command needs Redis for.
 */
import { FerryError } from '../errors/index.js';

/** host:port of a Redis URL, without credentials (for messages). */
export function redisWhere(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '6379'}`;
  } catch {
    return 'the configured URL';
  }
}

export class RedisUnavailableError extends FerryError<'FERRY_REDIS_UNAVAILABLE'> {
  readonly code = 'FERRY_REDIS_UNAVAILABLE';
  override readonly exitCode = 5;

  /** `need`: what the command keeps in Redis, as the end of a sentence ("it reads the runs there"). */
  constructor(where: string, need: string, options?: ErrorOptions) {
    super(
      `Redis at ${where} does not answer, and ${need}. Start Redis or set REDIS_URL to one that ` +
        'runs, then try again.',
      { redis: where },
      options,
    );
  }
}

/**
 * Errors of a connection rather than of a command: Redis went away (refused, reset, closed while a
 * transaction was in flight, a command given up after its retries). Decided by the error's class
 * name and system code, as ioredis exports no classes for them.
 */
export function isRedisConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof RedisUnavailableError) return true;
  const code = (error as NodeJS.ErrnoException).code;
  if (code && CONNECTION_CODES.has(code)) return true;
  return CONNECTION_ERRORS.has(error.name) || error.message === 'Connection is closed.';
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'NR_CLOSED',
]);
const CONNECTION_ERRORS = new Set(['AbortError', 'MaxRetriesPerRequestError']);
