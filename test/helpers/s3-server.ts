/**
 * An S3-compatible server for tests (s3rver, in this process) on a free port of 127.0.0.1, its
 * buckets in a temp folder; and a client for the test's own uploads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export interface TestS3 {
  endpoint: string;
  port: number;
  /** Credentials s3rver accepts. */
  accessKeyId: string;
  secretAccessKey: string;
  client: S3Client;
  stop(): Promise<void>;
}

export async function startS3(buckets: string[]): Promise<TestS3> {
  // As S3Drop does: the pinned SDK runs on Node 20, its warning about 2027 is noise here.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const dir = mkdtempSync(join(tmpdir(), 'ferry-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    directory: dir,
    silent: true,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    port: address.port,
    ...credentials,
    client,
    async stop() {
      client.destroy();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
