import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging/logger.js';
import { createRedis, warnIfEvicting } from '../../src/redis/connection.js';
import { startRedisServer, type PrivateRedis } from '../helpers/redis-server.js';

function capture() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return {
    logger: createLogger({ format: 'json', destination: stream }),
    text: () => chunks.join(''),
  };
}

describe('warnIfEvicting', () => {
  let server: PrivateRedis;
  beforeAll(async () => {
    // A Redis of the test's own: the test changes its maxmemory-policy.
    server = await startRedisServer(['--maxmemory-policy', 'allkeys-lru']);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('warns when the Redis would evict keys, and is quiet once it is set to noeviction', async () => {
    const redis = createRedis(server.url);
    try {
      const evicting = capture();
      expect(await warnIfEvicting(redis, evicting.logger)).toBe('allkeys-lru');
      expect(evicting.text()).toMatch(/noeviction/);
      expect(evicting.text()).toMatch(/"level":40/);

      await redis.config('SET', 'maxmemory-policy', 'noeviction');
      const safe = capture();
      expect(await warnIfEvicting(redis, safe.logger)).toBe('noeviction');
      expect(safe.text()).toBe('');
    } finally {
      redis.disconnect();
    }
  });
});
