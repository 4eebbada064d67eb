import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** The Redis the tests use: REDIS_URL, else the machine's 127.0.0.1:6379. */
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other test uses, so tests share one Redis without touching each other. */
export function uniquePrefix(label = 't'): string {
  return `ferrytest-${label}-${randomUUID().slice(0, 8)}`;
}

/** Deletes every key under the prefix (call in afterAll/afterEach). */
export async function deleteKeys(prefix: string, url = TEST_REDIS_URL): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
