/**
 * schedule.pickup from an SFTP server (a private sshd started here) and an S3 bucket (s3rver):
 * a file still being uploaded is not taken; the newest quiet export is read once, archived on
 * the server, older ones archived unread; a second tick finds nothing new; an export older than
 * one already read goes to the error folder unread; a wrong host key is a skipped run naming the
 * fingerprint it saw, with every file left where it was.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { PutObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import SftpClient from 'ssh2-sftp-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generateItems } from '../../bench/generate-items.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import type { FerryConfig } from '../../src/config/schema.js';
import { loadPipeline } from '../../src/pipeline/definition/load-pipeline.js';
import { pickupSchema, type Pickup } from '../../src/pipeline/definition/schedule-schema.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { recentRuns } from '../../src/runs/run-index.js';
import type { RunRecord } from '../../src/runs/run-record.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { pickUpRemoteExports } from '../../src/schedules/tick-remote-pickup.js';
import type { TickContext } from '../../src/schedules/tick-run.js';
import { deleteKeys, uniquePrefix } from '../helpers/redis.js';
import { startS3, type TestS3 } from '../helpers/s3-server.js';
import { startSshd, type TestSshd } from '../helpers/sshd.js';
import { quietLogger, testConfig, useDeliveryHarness } from '../queue/delivery-fixtures.js';

const h = useDeliveryHarness('remote-pickup', { seed: 12 }, async (harness) => {
  await generateItems(30, join(harness.dir, 'items.csv'), 2);
});
let sshd: TestSshd;
let s3: TestS3;
const prefixes: string[] = [];
beforeAll(async () => {
  sshd = await startSshd();
  s3 = await startS3(['drop']);
}, 30_000);
afterAll(async () => {
  await sshd?.stop();
  await s3?.stop();
  for (const p of prefixes) await deleteKeys(p);
});

const HOUR = 3600;
const catalog = parse(
  readFileSync(join(PROJECT_ROOT, 'config/pipelines/catalog.yaml'), 'utf8'),
) as Record<string, Record<string, unknown>>;

function setup(
  label: string,
  source: Record<string, unknown>,
  pickup: Record<string, unknown>,
): { config: FerryConfig; pickup: Pickup } {
  const prefix = uniquePrefix(label);
  prefixes.push(prefix);
  const dir = join(h.dir, label);
  mkdirSync(dir);
  const base = testConfig(prefix, h.sim.url, join(h.dir, 'reports'), { bundleSize: 10 });
  const config = { ...base, pipelines: { ...base.pipelines, dir } };
  const file = {
    ...catalog,
    source: {
      connector: 'csv',
      options: (catalog.source as { options?: unknown }).options ?? {},
      ...source,
    },
    schedule: { cron: '0 2 * * *', pickup },
  };
  writeFileSync(join(dir, 'nightly.yaml'), stringify(file));
  // The file loads as a worker would load it, and gives the tick its pickup settings.
  const loaded = loadPipeline('nightly', config);
  return { config, pickup: pickupSchema.parse(loaded.schedule?.pickup) };
}

function tickContext(config: FerryConfig): TickContext {
  return {
    config,
    redis: h.redis,
    keys: deliveryKeys(config.redis.prefix),
    pipeline: 'nightly',
    timing: { scheduledAt: Date.now() },
    logger: quietLogger(),
    signal: new AbortController().signal,
  };
}

async function runsOf(config: FerryConfig): Promise<RunRecord[]> {
  const runs = await recentRuns(h.redis, deliveryKeys(config.redis.prefix), {
    pipeline: 'nightly',
    limit: 100,
  });
  return runs.reverse();
}

async function tick(
  config: FerryConfig,
  source: Record<string, unknown>,
  pickup: Pickup,
): Promise<void> {
  const loaded = loadPipeline('nightly', config);
  const spec = loaded.source.sftp ? { sftp: loaded.source.sftp } : { s3: loaded.source.s3! };
  expect(source).toBeDefined();
  await pickUpRemoteExports(tickContext(config), pickup, spec);
}

describe('pickup from an SFTP server', () => {
  function sftpSource(folder: string, hostKey = '${TEST_SFTP_HOST_KEY}'): Record<string, unknown> {
    return {
      sftp: {
        host: '127.0.0.1',
        port: sshd.port,
        username: sshd.username,
        privateKey: '${TEST_SFTP_KEY}',
        hostKey,
        path: folder,
        pattern: '*.csv',
      },
    };
  }

  it('leaves a file still being uploaded, then reads it once and archives it on the server', async () => {
    const keyFile = join(h.dir, 'sftp-key');
    writeFileSync(keyFile, sshd.privateKey);
    process.env.TEST_SFTP_KEY_FILE = keyFile; // the key from a file, as a docker secret
    process.env.TEST_SFTP_HOST_KEY = sshd.hostPublicKey;
    const folder = join(sshd.dir, 'nightly');
    mkdirSync(folder);
    const source = sftpSource(folder);
    const { config, pickup } = setup('sftp', source, { quietSeconds: 60 });
    const items = readFileSync(join(h.dir, 'items.csv'));
    // An upload in progress over SFTP: half the file written, the stream still open.
    const uploader = new SftpClient('test-uploader', {
      error: () => undefined,
      end: () => undefined,
      close: () => undefined,
    });
    await uploader.connect({
      host: '127.0.0.1',
      port: sshd.port,
      username: sshd.username,
      privateKey: sshd.privateKey,
    });
    const upload = uploader.createWriteStream(join(folder, 'items-2.csv'));
    await new Promise<void>((resolve) =>
      upload.write(items.subarray(0, items.length / 2), () => resolve()),
    );
    h.sim.reset();
    const delivery = await startDeliveryWorker({ config, logger: quietLogger() });
    try {
      await tick(config, source, pickup);
      let runs = await runsOf(config);
      expect(runs.map((r) => [r.status, r.reason])).toEqual([
        [
          'skipped',
          `no new export in sftp://${sshd.username}@127.0.0.1:${sshd.port}${folder} matching "*.csv" (1 still being written)`,
        ],
      ]);
      expect(readdirSync(folder)).toEqual(['items-2.csv']);

      // The upload ends; an hour later, an older export also lies there.
      // Closed (its handle too) before the connection ends.
      const closed = new Promise<void>((resolve) => upload.once('close', () => resolve()));
      upload.end(items.subarray(items.length / 2));
      await closed;
      await uploader.end();
      copyFileSync(join(h.dir, 'items.csv'), join(folder, 'items-1.csv'));
      const now = Date.now() / 1000;
      utimesSync(join(folder, 'items-1.csv'), now - 3 * HOUR, now - 3 * HOUR);
      utimesSync(join(folder, 'items-2.csv'), now - 2 * HOUR, now - 2 * HOUR);
      await tick(config, source, pickup);
      runs = await runsOf(config);
      expect(runs).toHaveLength(2);
      expect(runs[1]).toMatchObject({
        status: 'succeeded',
        trigger: 'schedule',
        file: `sftp://${sshd.username}@127.0.0.1:${sshd.port}${join(folder, 'items-2.csv')}`,
      });
      expect(readdirSync(join(folder, 'archive')).sort()).toEqual(['items-1.csv', 'items-2.csv']);
      expect(readFileSync(join(folder, 'archive', 'items-2.csv'))).toEqual(items);
      expect(readdirSync(folder)).toEqual(['archive']);
      const delivered = h.sim.stats().byOperation;

      // Exactly once: the next tick reads nothing and sends nothing.
      await tick(config, source, pickup);
      runs = await runsOf(config);
      expect(runs).toHaveLength(3);
      expect(runs[2]).toMatchObject({
        status: 'skipped',
        reason: expect.stringMatching(/^no new export in sftp:/),
      });
      expect(h.sim.stats().byOperation).toEqual(delivered);

      // An export older than the one read turns up late: the error folder, unread.
      copyFileSync(join(h.dir, 'items.csv'), join(folder, 'items-0.csv'));
      utimesSync(join(folder, 'items-0.csv'), now - 4 * HOUR, now - 4 * HOUR);
      await tick(config, source, pickup);
      expect(readdirSync(join(folder, 'error'))).toEqual(['items-0.csv']);
      expect((await runsOf(config)).filter((r) => r.status !== 'skipped')).toHaveLength(1);
    } finally {
      await delivery.close();
      delete process.env.TEST_SFTP_KEY_FILE;
      delete process.env.TEST_SFTP_HOST_KEY;
    }
  });

  it('with a wrong host key: a skipped run naming the key it saw, every file left in place', async () => {
    process.env.TEST_SFTP_KEY_FILE = join(h.dir, 'sftp-key');
    writeFileSync(process.env.TEST_SFTP_KEY_FILE, sshd.privateKey);
    const folder = join(sshd.dir, 'spoofed');
    mkdirSync(folder);
    copyFileSync(join(h.dir, 'items.csv'), join(folder, 'items.csv'));
    const now = Date.now() / 1000;
    utimesSync(join(folder, 'items.csv'), now - HOUR, now - HOUR);
    const source = sftpSource(folder, `SHA256:${'Q'.repeat(43)}`);
    const { config, pickup } = setup('sftp-spoofed', source, {});
    try {
      await tick(config, source, pickup);
      const runs = await runsOf(config);
      expect(runs).toHaveLength(1);
      expect(runs[0]!.status).toBe('skipped');
      expect(runs[0]!.reason).toMatch(/^FERRY_SOURCE_HOST_KEY: /);
      expect(runs[0]!.reason).toContain(sshd.hostFingerprint);
      expect(readdirSync(folder)).toEqual(['items.csv']);
    } finally {
      delete process.env.TEST_SFTP_KEY_FILE;
    }
  });
});

describe('pickup from an S3 bucket', () => {
  async function keys(prefix: string): Promise<string[]> {
    const listed = await s3.client.send(
      new ListObjectsV2Command({ Bucket: 'drop', Prefix: prefix }),
    );
    return (listed.Contents ?? []).map((o) => o.Key!).sort();
  }

  it('reads the newest export once (copy-then-delete to the archive), refuses an empty one to the error folder', async () => {
    const source = {
      s3: {
        bucket: 'drop',
        prefix: 'erp/items-',
        endpoint: s3.endpoint,
        accessKeyId: '${TEST_S3_KEY}',
        secretAccessKey: '${TEST_S3_SECRET}',
        pattern: '*.csv',
      },
    };
    process.env.TEST_S3_KEY = s3.accessKeyId;
    const secretFile = join(h.dir, 's3-secret');
    writeFileSync(secretFile, `${s3.secretAccessKey}\n`);
    process.env.TEST_S3_SECRET_FILE = secretFile;
    const { config, pickup } = setup('s3', source, { take: 'all', quietSeconds: 0 });
    const items = readFileSync(join(h.dir, 'items.csv'));
    await s3.client.send(
      new PutObjectCommand({ Bucket: 'drop', Key: 'erp/items-monday.csv', Body: items }),
    );
    await s3.client.send(new PutObjectCommand({ Bucket: 'drop', Key: 'erp/notes.txt', Body: 'x' }));
    h.sim.reset();
    const delivery = await startDeliveryWorker({ config, logger: quietLogger() });
    try {
      await tick(config, source, pickup);
      let runs = await runsOf(config);
      expect(runs.map((r) => [r.status, r.file])).toEqual([
        ['succeeded', 's3://drop/erp/items-monday.csv'],
      ]);
      expect(await keys('erp/')).toEqual(['erp/archive/items-monday.csv', 'erp/notes.txt']);
      const delivered = h.sim.stats().byOperation;

      await tick(config, source, pickup);
      runs = await runsOf(config);
      expect(runs[1]).toMatchObject({
        status: 'skipped',
        reason: 'no new export in s3://drop/erp/items- matching "*.csv"',
      });
      expect(h.sim.stats().byOperation).toEqual(delivered);

      await s3.client.send(
        new PutObjectCommand({
          Bucket: 'drop',
          Key: 'erp/items-tuesday.csv',
          Body: Buffer.alloc(0),
        }),
      );
      await tick(config, source, pickup);
      runs = await runsOf(config);
      expect(runs[2]!.reason).toMatch(/^FERRY_NO_RECORDS: /);
      expect(await keys('erp/')).toEqual([
        'erp/archive/items-monday.csv',
        'erp/error/items-tuesday.csv',
        'erp/notes.txt',
      ]);
    } finally {
      await delivery.close();
      delete process.env.TEST_S3_KEY;
      delete process.env.TEST_S3_SECRET_FILE;
    }
  });

  it('is not taken while younger than quietSeconds', async () => {
    const source = {
      s3: {
        bucket: 'drop',
        prefix: 'quiet/',
        endpoint: s3.endpoint,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
      },
    };
    const { config, pickup } = setup('s3-quiet', source, { quietSeconds: 600 });
    await s3.client.send(
      new PutObjectCommand({
        Bucket: 'drop',
        Key: 'quiet/items.csv',
        Body: readFileSync(join(h.dir, 'items.csv')),
      }),
    );
    await tick(config, source, pickup);
    const runs = await runsOf(config);
    expect(runs.map((r) => r.reason)).toEqual([
      'no new export in s3://drop/quiet/ matching "*" (1 still being written)',
    ]);
    expect(await keys('quiet/')).toEqual(['quiet/items.csv']);
    expect(existsSync(join(h.dir, 's3-quiet', 'nightly.yaml'))).toBe(true);
  });
});
