import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { buildFerry } from './build-ferry.js';
import { TEST_REDIS_URL } from './redis.js';
import { clearCallerEnv } from './test-env.js';

/**
 * Clears the caller's FERRY_*, REDIS_* and OTEL_* settings (test-env.ts) from this process before
 * vitest starts its workers, which inherit its environment, as the children they start inherit
 * theirs. Fails the run at once, with what to do, when the tests' Redis does not answer; then
 * compiles the `ferry` binary that tests run as a child process (test/helpers/ferry-bin.ts).
 */
export default async function setup(project: TestProject): Promise<void> {
  clearCallerEnv(process.env, TEST_REDIS_URL);
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
  project.provide('ferryBin', await buildFerry(PROJECT_ROOT));
}
