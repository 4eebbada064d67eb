/** The demo's Redis: REDIS_URL's when it answers, else a private one, else how to get one. */
import type { Logger } from '../logging/index.js';
import { connectState, redisWhere } from '../state/index.js';
import { ConfigError } from '../errors/index.js';
import { startPrivateRedis, type PrivateRedis } from '../redis/index.js';

export interface DemoRedis {
  url: string;
  /** Set when the demo started its own redis-server. */
  private?: PrivateRedis;
}

export async function demoRedis(url: string, logger: Logger): Promise<DemoRedis> {
  try {
    (await connectState(url)).disconnect();
    return { url };
  } catch {
    logger.info(
      { redis: redisWhere(url) },
      'no Redis answers there; starting a private redis-server',
    );
  }
  const own = await startPrivateRedis();
  if (own) return { url: own.url, private: own };
  throw new ConfigError('REDIS_URL', [
    {
      path: 'redis.url',
      message:
        `no Redis answers at ${redisWhere(url)} and no redis-server is installed to start one. ` +
        'Install Redis (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis) ' +
        'or run one (docker run -d -p 6379:6379 redis:7), or set REDIS_URL to a Redis that runs; ' +
        'then run `npm run demo` again.',
    },
  ]);
}
