/**
 * SFTP and S3 sources against real servers started here: a private OpenSSH sshd and s3rver, each
 * on a free port, with a TCP proxy in front to cut connections midway. Reads stream and resume
 * after a lost connection; a wrong host key stops before anything is read; an unreachable server
 * is FERRY_SOURCE_UNREACHABLE (exit 5), also through `ferry read`.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostKeyMismatchError, SourceUnreachableError } from '../../../connectors/errors.js';
import { readSource } from '../../../connectors/read-source.js';
import { S3Drop } from '../../../connectors/sources/s3.js';
import { SftpDrop } from '../../../connectors/sources/sftp.js';
import type { S3Spec, SftpSpec } from '../../../connectors/sources/remote-types.js';
import { PROJECT_ROOT } from '../../../src/config/load-config.js';
import { FERRY_BIN } from '../../helpers/ferry-bin.js';
import { freePort } from '../../helpers/redis-server.js';
import { uniquePrefix } from '../../helpers/redis.js';
import { startS3, type TestS3 } from '../../helpers/s3-server.js';
import { startSshd, type TestSshd } from '../../helpers/sshd.js';
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir();
let sshd: TestSshd;
let s3: TestS3;
let proxy: TcpProxy;
let s3proxy: TcpProxy;
/** About 1.2 MB of CSV: many SFTP reads and TCP segments, so a cut lands midway. */
const big =
  [
    'sku,name,price',
    ...Array.from({ length: 40_000 }, (_, i) => `${String(i).padStart(6, '0')},Item ${i},${i}.99`),
  ].join('\n') + '\n';

beforeAll(async () => {
  sshd = await startSshd();
  proxy = await startTcpProxy(sshd.port);
  s3 = await startS3(['drop']);
  s3proxy = await startTcpProxy(s3.port);
  mkdirSync(join(sshd.dir, 'in'));
  writeFileSync(join(sshd.dir, 'in', 'items.csv'), big);
  writeFileSync(join(sshd.dir, 'in', 'notes.txt'), 'not an export');
  await s3.client.send(new PutObjectCommand({ Bucket: 'drop', Key: 'in/items.csv', Body: big }));
  await s3.client.send(
    new PutObjectCommand({ Bucket: 'drop', Key: 'in/archive/old.csv', Body: 'sku\n1\n' }),
  );
}, 30_000);

afterAll(async () => {
  await proxy?.close();
  await s3proxy?.close();
  await sshd?.stop();
  await s3?.stop();
  tmp.remove();
});

function sftpSpec(over: Partial<SftpSpec> = {}): SftpSpec {
  return {
    host: sshd.host,
    port: proxy.port,
    username: sshd.username,
    privateKey: sshd.privateKey,
    hostKey: sshd.hostPublicKey,
    path: join(sshd.dir, 'in'),
    pattern: '*.csv',
    ...over,
  };
}

function s3Spec(over: Partial<S3Spec> = {}): S3Spec {
  return {
    bucket: 'drop',
    prefix: 'in/',
    endpoint: `http://127.0.0.1:${s3proxy.port}`,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    ...over,
  };
}

async function records(spec: Parameters<typeof readSource>[0]): Promise<string[]> {
  const { items } = readSource(spec, 'csv');
  const skus: string[] = [];
  for await (const item of items) {
    if ('error' in item) throw new Error(item.error.message);
    skus.push(item.record.fields.sku!);
  }
  return skus;
}

describe('an SFTP source', () => {
  it('reads the matching files of a folder through the connector, keys as strings', async () => {
    const skus = await records({ sftp: sftpSpec() });
    expect(skus).toHaveLength(40_000);
    expect(skus[0]).toBe('000000');
    expect(skus.at(-1)).toBe('039999');
  });

  it('takes the host key as a SHA256 fingerprint too, and lists only matching files', async () => {
    const drop = new SftpDrop(sftpSpec({ hostKey: sshd.hostFingerprint }));
    try {
      expect((await drop.list()).map((e) => e.name)).toEqual(['items.csv']);
    } finally {
      await drop.close();
    }
  });

  it('stops before reading on a wrong host key, naming the fingerprint it saw', async () => {
    const other = 'SHA256:' + 'x'.repeat(43);
    const drop = new SftpDrop(sftpSpec({ hostKey: other }));
    const error = await drop.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostKeyMismatchError);
    expect((error as HostKeyMismatchError).code).toBe('FERRY_SOURCE_HOST_KEY');
    expect((error as Error).message).toContain(sshd.hostFingerprint);
    expect((error as Error).message).not.toContain('PRIVATE KEY');
  });

  it('goes on from the last byte when the server drops the connection mid-file', async () => {
    const drop = new SftpDrop(sftpSpec());
    try {
      const [entry] = await drop.list();
      const before = proxy.connections();
      proxy.cutAfter(300_000, 1); // the connection open now is not cut: only the next one
      await drop.close();
      const body = await text(drop.open(entry!));
      expect(body).toBe(big);
      // The first connection was cut midway, a second one finished the read.
      expect(proxy.connections() - before).toBe(2);
    } finally {
      proxy.cutAfter(0, 0);
      await drop.close();
    }
  });

  it('gives up with FERRY_SOURCE_UNREACHABLE when the connection keeps dropping', async () => {
    proxy.cutAfter(200_000, Infinity);
    try {
      const error = await records({ sftp: sftpSpec() }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceUnreachableError);
      expect((error as SourceUnreachableError).exitCode).toBe(5);
      expect((error as Error).message).toMatch(/lost 4 times while reading it/);
    } finally {
      proxy.cutAfter(0, 0);
    }
  });

  it('is FERRY_SOURCE_UNREACHABLE (exit 5) when nothing answers', async () => {
    const port = await freePort();
    const error = await new SftpDrop(sftpSpec({ port })).list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnreachableError);
    expect((error as Error).message).toMatch(/cannot be reached \(4 tries\): ECONNREFUSED/);
  });
});

describe('an S3 source', () => {
  it('reads the objects of the prefix that match, not those of its archive folder', async () => {
    const drop = new S3Drop(s3Spec({ pattern: '*.csv' }));
    try {
      expect((await drop.list()).map((e) => e.path)).toEqual(['in/items.csv']);
    } finally {
      await drop.close();
    }
    expect(await records({ s3: s3Spec({ pattern: '*.csv' }) })).toHaveLength(40_000);
  });

  it('fetches the rest (Range, same ETag) when the body is cut midway', async () => {
    const drop = new S3Drop(s3Spec({ key: 'in/items.csv' }));
    try {
      const [entry] = await drop.list();
      const before = s3proxy.connections();
      s3proxy.cutAfter(400_000, 1);
      await drop.close();
      const again = new S3Drop(s3Spec({ key: 'in/items.csv' }));
      expect(await text(again.open(entry!))).toBe(big);
      expect(s3proxy.connections() - before).toBeGreaterThanOrEqual(2);
      await again.close();
    } finally {
      s3proxy.cutAfter(0, 0);
    }
  });

  it('takes credentials from AWS_*_FILE variables; an unknown key is refused with a hint', async () => {
    const idFile = join(tmp.dir, 'key-id');
    const secretFile = join(tmp.dir, 'secret');
    writeFileSync(idFile, `${s3.accessKeyId}\n`);
    writeFileSync(secretFile, `${s3.secretAccessKey}\n`);
    const env = { AWS_ACCESS_KEY_ID_FILE: idFile, AWS_SECRET_ACCESS_KEY_FILE: secretFile };
    const spec = s3Spec({ accessKeyId: undefined, secretAccessKey: undefined, pattern: '*.csv' });
    const good = new S3Drop(spec, env);
    expect((await good.list()).map((e) => e.name)).toEqual(['items.csv']);
    await good.close();
    writeFileSync(idFile, 'UNKNOWNKEYID');
    const bad = new S3Drop(spec, env);
    const error = await bad.list().catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/HTTP 403 .*check the credentials/);
    expect((error as Error).message).not.toContain(s3.secretAccessKey);
    await bad.close();
  });

  it('is FERRY_SOURCE_UNREACHABLE when the endpoint does not answer', async () => {
    const port = await freePort();
    const drop = new S3Drop(s3Spec({ endpoint: `http://127.0.0.1:${port}` }));
    const error = await drop.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnreachableError);
    await drop.close();
  });
});

describe('ferry read of a remote address', () => {
  const ferryRead = (args: string[], env: Record<string, string>): ReturnType<typeof ferry> =>
    ferry(['read', ...args], env);
  function ferry(
    args: string[],
    env: Record<string, string>,
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [FERRY_BIN, ...args], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, FERRY_LOG_LEVEL: 'silent', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('reads one object at sftp://, the key from FERRY_SFTP_PRIVATE_KEY_FILE', async () => {
    const keyFile = join(tmp.dir, 'id');
    writeFileSync(keyFile, sshd.privateKey);
    const address = `sftp://${sshd.username}@127.0.0.1:${sshd.port}${join(sshd.dir, 'in', 'items.csv')}`;
    const run = await ferryRead([address, '--limit', '2', '--json'], {
      FERRY_SFTP_HOST_KEY: sshd.hostFingerprint,
      FERRY_SFTP_PRIVATE_KEY_FILE: keyFile,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      { line: 2, fields: { sku: '000000', name: 'Item 0', price: '0.99' } },
      { line: 3, fields: { sku: '000001', name: 'Item 1', price: '1.99' } },
    ]);
  });

  it('reads one object at s3://, endpoint and credentials from the AWS variables', async () => {
    const run = await ferryRead(['s3://drop/in/items.csv', '--limit', '1', '--json'], {
      AWS_ENDPOINT_URL: s3.endpoint,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      AWS_REGION: 'us-east-1',
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      { line: 2, fields: { sku: '000000', name: 'Item 0', price: '0.99' } },
    ]);
  });

  it('plans a pipeline on one object at sftp:// (ferry plan --file), reading the whole export', async () => {
    const keyFile = join(tmp.dir, 'id-plan');
    writeFileSync(keyFile, sshd.privateKey);
    copyFileSync(join(PROJECT_ROOT, 'examples/items.csv'), join(sshd.dir, 'items-plan.csv'));
    let expected = 0;
    for await (const item of readSource({ file: join(PROJECT_ROOT, 'examples/items.csv') }).items) {
      if ('record' in item) expected++;
    }
    const address = `sftp://${sshd.username}@127.0.0.1:${sshd.port}${join(sshd.dir, 'items-plan.csv')}`;
    const run = await ferry(['plan', 'catalog', '--file', address, '--json'], {
      FERRY_PREFIX: uniquePrefix('remote-plan'),
      FERRY_SFTP_HOST_KEY: sshd.hostPublicKey,
      FERRY_SFTP_PRIVATE_KEY_FILE: keyFile,
    });
    expect(run.stderr).not.toMatch(/error/i);
    // The sample export holds 5 records the catalog rejects, as a local plan of it says (exit 1).
    expect(run.code).toBe(1);
    const plan = JSON.parse(run.stdout) as {
      pipeline: string;
      rows: number;
      errors: Array<{ file: string }>;
    };
    expect(plan).toMatchObject({ pipeline: 'catalog', rows: expected });
    expect(plan.errors).toHaveLength(5);
    expect(plan.errors[0]!.file).toBe(address);
    expect(expected).toBeGreaterThan(0);
  });

  it('exits 5 when the SFTP server cannot be reached', async () => {
    const port = await freePort();
    const run = await ferryRead([`sftp://me@127.0.0.1:${port}/x.csv`], {
      FERRY_SFTP_HOST_KEY: sshd.hostFingerprint,
      FERRY_SFTP_PASSWORD: 'never-shown-secret',
    });
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(/FERRY_SOURCE_UNREACHABLE|cannot be reached/);
    expect(run.stderr).not.toContain('never-shown-secret');
  });
});

it('keeps the big fixture as written (sanity of the test itself)', () => {
  expect(readFileSync(join(sshd.dir, 'in', 'items.csv'), 'utf8')).toBe(big);
});
