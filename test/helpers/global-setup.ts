import { Redis } from 'ioredis';
import { TEST_REDIS_URL } from './redis.js';

/** Fails the run at once, with what to do, when the tests' Redis does not answer. */
export default async function setup(): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch {
    throw new Error(
      `The tests need a Redis at ${TEST_REDIS_URL} and none answers. Start one ` +
        '(redis-server --port 6379 --save "" --daemonize yes) or set REDIS_URL; `bash .ci/run` does this for you.',
    );
  } finally {
    redis.disconnect();
  }
}
