/**
 * `redis.mode: sentinel`: createRedis asks a sentinel (started from the redis-server binary) where
 * the master is, and works on it; the URL gives only the credentials and database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '../../src/redis/connection.js';
import { freePort, startRedisServer, type PrivateRedis } from '../helpers/redis-server.js';
import { until } from '../helpers/until.js';
import { tempDir } from '../queue/delivery-fixtures.js';

const dir = tempDir('sentinel');
let master: PrivateRedis | undefined;
let sentinel: ChildProcess | undefined;
let sentinelPort = 0;

beforeAll(async () => {
  master = await startRedisServer();
  // A password once it answers (startRedisServer's probe sends none).
  const admin = createRedis(master.url);
  await admin.config('SET', 'requirepass', 's3cret');
  admin.disconnect();
  sentinelPort = await freePort();
  // Sentinel rewrites its config file, so it gets one of its own in the temp dir.
  const conf = join(dir.path, 'sentinel.conf');
  writeFileSync(
    conf,
    [
      `port ${sentinelPort}`,
      'bind 127.0.0.1',
      `dir ${dir.path}`,
      `sentinel monitor main 127.0.0.1 ${master.port} 1`,
      'sentinel auth-pass main s3cret',
      '',
    ].join('\n'),
  );
  sentinel = spawn('redis-server', [conf, '--sentinel'], { stdio: 'ignore' });
}, 20_000);

afterAll(async () => {
  if (sentinel && sentinel.exitCode === null && sentinel.signalCode === null) {
    const exited = new Promise((r) => sentinel?.once('exit', r));
    sentinel.kill('SIGTERM');
    await exited;
  }
  await master?.stop();
  dir.remove();
});

describe('createRedis with mode sentinel', () => {
  it('finds the master through the sentinel, with the URL credentials and database', async () => {
    const redis = createRedis(
      {
        url: 'redis://:s3cret@ignored/2',
        mode: 'sentinel',
        sentinels: [`127.0.0.1:${sentinelPort}`],
        name: 'main',
      },
      // Retry while the sentinel starts; fail a command instead of waiting for ever.
      { maxRetriesPerRequest: 20, retryStrategy: () => 100 },
    );
    redis.on('error', () => undefined);
    try {
      await until('the sentinel to name the master', async () =>
        redis.ping().then(
          (pong) => pong === 'PONG',
          () => false,
        ),
      );
      await redis.set('ferrytest-sentinel', 'yes');
      expect(await redis.get('ferrytest-sentinel')).toBe('yes');
      expect(await redis.info('keyspace')).toMatch(/^db2:keys=1/m);
    } finally {
      redis.disconnect();
    }
  }, 30_000);
});
