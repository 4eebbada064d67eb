import { masters, type RedisClient } from './connection.js';

/**
 * Deletes every key under `<prefix>:` (SCAN + UNLINK, 1,000 at a time): a namespace's cleanup. On a
 * cluster SCAN sees one node's keys, so it runs on every master, and each key is unlinked on its
 * own (one UNLINK of keys in different slots fails with CROSSSLOT).
 */
export async function deleteKeysUnder(redis: RedisClient, prefix: string): Promise<void> {
  for (const node of await masters(redis)) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) {
        const unlink = node.pipeline();
        for (const key of keys) unlink.unlink(key);
        await unlink.exec();
      }
    } while (cursor !== '0');
  }
}
