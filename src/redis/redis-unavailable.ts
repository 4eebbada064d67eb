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
  constructor(
    where: string,
    need: string,
    options?: ErrorOptions,
    stoppedAt: { runId?: string; phase?: string } = {},
  ) {
    super(
      `Redis at ${where} does not answer, and ${need}. Start Redis or set REDIS_URL to one that ` +
        'runs, then try again.',
      { redis: where, ...stoppedAt },
      options,
    );
  }
}

/**
 * Errors of a connection rather than of a command: Redis went away (refused, reset, closed while a
 * transaction was in flight, a command given up after its retries or past its deadline).
 */
export function isRedisConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof RedisUnavailableError) return true;
  const code = (error as NodeJS.ErrnoException).code;
  if (code && CONNECTION_CODES.has(code)) return true;
  return CONNECTION_ERRORS.has(error.name) || CONNECTION_MESSAGES.has(error.message);
}

/**
 * ioredis gives these no class nor code, only their text: a closed connection, and a command
 * past its `commandTimeout` (the console's deadline, connection.ts withCommandTimeout).
 */
const CONNECTION_MESSAGES = new Set(['Connection is closed.', 'Command timed out']);

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
