import type { Redis } from 'ioredis';

/** Deletes every key under `<prefix>:` (SCAN + UNLINK, 1,000 at a time): a namespace's cleanup. */
export async function deleteKeysUnder(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
}
