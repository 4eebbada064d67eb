/**
 * Objects in an S3 bucket, or in an S3-compatible store (MinIO, Ceph, s3rver...) at `endpoint`,
 * with the AWS SDK v3. The objects directly under the prefix's folder whose names match the
 * pattern; or one object (an s3:// address). Reads stream GetObject's body; a body cut midway is
 * fetched again from the next byte (Range, If-Match the same ETag). Credentials: the spec's
 * `${NAME}` values, else AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or their _FILE variables),
 * else the SDK's standard chain (profile, web identity, instance role).
 */
import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { envValue } from '../../src/config/index.js';
import { isFerryError } from '../../src/errors/index.js';
import { SourceError, SourceNotFoundError, SourceUnreachableError } from '../errors.js';
import { globToRegExp } from './glob.js';
import { timeSuffix, type RemoteDrop, type RemoteEntry, type S3Spec } from './remote-types.js';
import { resumableRead } from './resumable-read.js';

const CONNECT_TIMEOUT_MS = 10_000;
/** A request (or a body) that stays silent this long is given up and tried again. */
const REQUEST_TIMEOUT_MS = 60_000;
/** The SDK's own tries of a request on throttling, 5xx answers and network errors. */
const MAX_ATTEMPTS = 4;

interface SdkError extends Error {
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

function statusOf(error: unknown): number | undefined {
  return (error as SdkError).$metadata?.httpStatusCode;
}

/** Access keys from the environment when one of them comes from a _FILE (the SDK reads no file). */
function environmentCredentials(env: NodeJS.ProcessEnv): S3ClientConfig['credentials'] {
  const fromFile = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'].some(
    (name) => env[name] === undefined && env[`${name}_FILE`],
  );
  if (!fromFile) return undefined;
  const read = (name: string): string | undefined => {
    const found = envValue(env, name);
    if ('problem' in found && found.problem) throw new SourceNotFoundError(`${found.problem}.`);
    return found.value;
  };
  const accessKeyId = read('AWS_ACCESS_KEY_ID');
  const secretAccessKey = read('AWS_SECRET_ACCESS_KEY');
  if (!accessKeyId || !secretAccessKey) return undefined;
  const sessionToken = read('AWS_SESSION_TOKEN');
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

/** The client's settings: the spec first, then the standard AWS variables. */
export function s3ClientConfig(spec: S3Spec, env: NodeJS.ProcessEnv = process.env): S3ClientConfig {
  const endpoint = spec.endpoint ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  const credentials = spec.accessKeyId
    ? {
        accessKeyId: spec.accessKeyId,
        secretAccessKey: spec.secretAccessKey ?? '',
        ...(spec.sessionToken ? { sessionToken: spec.sessionToken } : {}),
      }
    : environmentCredentials(env);
  return {
    region: spec.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    ...(endpoint ? { endpoint } : {}),
    // S3-compatible stores mostly want path-style addresses; AWS itself virtual-host ones.
    forcePathStyle: spec.forcePathStyle ?? endpoint !== undefined,
    ...(credentials ? { credentials } : {}),
    maxAttempts: MAX_ATTEMPTS,
    // Checksums only where S3 requires them: S3-compatible stores often do not know the others.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
  };
}

export class S3Drop implements RemoteDrop {
  readonly where: string;
  readonly many: boolean;
  private readonly client: S3Client;
  private readonly bucket: string;
  /** The prefix up to its last "/": where the listed objects (and the archive folders) are. */
  private readonly folder: string;

  constructor(
    private readonly spec: S3Spec,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.bucket = spec.bucket;
    const prefix = spec.key ?? spec.prefix ?? '';
    this.folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    this.where = `s3://${spec.bucket}/${prefix}`;
    this.many = spec.key === undefined;
    // The SDK warns on Node 20 that releases after January 2027 will need Node 22: the pinned
    // release runs on Node 20 (package-lock.json), and the warning would garble `ferry read`.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3Client(s3ClientConfig(spec, env));
  }

  nameOf(entry: RemoteEntry): string {
    return `s3://${this.bucket}/${entry.path}`;
  }

  /** An SDK error as a Ferry one: no answer or 5xx is unreachable (exit 5), 404 not found. */
  private fail(error: unknown, what: string): never {
    if (isFerryError(error)) throw error;
    const status = statusOf(error);
    const { name, code } = error as SdkError;
    if (status === undefined || status >= 500) {
      throw new SourceUnreachableError(
        `${what}: the S3 endpoint ${this.endpointName()} did not answer (${code ?? name}${status ? `, HTTP ${status}` : ''}) after ${MAX_ATTEMPTS} tries. Check the endpoint and the network, then run again.`,
        { source: what },
        { cause: error },
      );
    }
    if (status === 404) {
      throw new SourceNotFoundError(`${what}: not found (${name}).`, { source: what });
    }
    const hint =
      status === 403 || status === 401 ? ': check the credentials and the bucket policy' : '';
    throw new SourceError(`${what}: HTTP ${status} ${name}${hint}.`, { source: what, status });
  }

  private endpointName(): string {
    return (
      this.spec.endpoint ??
      process.env.AWS_ENDPOINT_URL_S3 ??
      process.env.AWS_ENDPOINT_URL ??
      'of AWS'
    );
  }

  async list(): Promise<RemoteEntry[]> {
    try {
      if (this.spec.key !== undefined) {
        const head = await this.head(this.spec.key);
        if (!head) throw new SourceNotFoundError(`${this.where}: no such object.`);
        return [head];
      }
      const match = globToRegExp(this.spec.pattern ?? '*');
      const entries: RemoteEntry[] = [];
      let token: string | undefined;
      do {
        const page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.spec.prefix ?? '',
            // Only the folder's own objects: never those in its archive and error folders.
            Delimiter: '/',
            ...(token ? { ContinuationToken: token } : {}),
          }),
        );
        for (const o of page.Contents ?? []) {
          if (!o.Key) continue;
          const name = o.Key.slice(this.folder.length);
          if (!name || !match.test(name)) continue;
          entries.push({
            name,
            path: o.Key,
            size: o.Size ?? 0,
            mtimeMs: o.LastModified?.getTime() ?? 0,
            ...(o.ETag ? { etag: o.ETag } : {}),
          });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (error) {
      this.fail(error, this.where);
    }
  }

  private async head(key: string): Promise<RemoteEntry | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        name: posix.basename(key),
        path: key,
        size: head.ContentLength ?? 0,
        mtimeMs: head.LastModified?.getTime() ?? 0,
        ...(head.ETag ? { etag: head.ETag } : {}),
      };
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }

  async stat(entry: RemoteEntry): Promise<RemoteEntry | undefined> {
    try {
      const head = await this.head(entry.path);
      return head ? { ...head, name: entry.name } : undefined;
    } catch (error) {
      this.fail(error, this.nameOf(entry));
    }
  }

  open(entry: RemoteEntry): Readable {
    const name = this.nameOf(entry);
    return resumableRead({
      name,
      entry,
      openAt: async (offset) => {
        try {
          const answer = await this.client.send(
            new GetObjectCommand({
              Bucket: this.bucket,
              Key: entry.path,
              ...(offset > 0 ? { Range: `bytes=${offset}-` } : {}),
              ...(entry.etag ? { IfMatch: entry.etag } : {}),
            }),
          );
          return answer.Body as Readable;
        } catch (error) {
          if (statusOf(error) === 412) {
            throw new SourceError(
              `${name} changed while it was read: it is left for the next run.`,
              {
                file: name,
              },
            );
          }
          this.fail(error, name);
        }
      },
      stat: async () => await this.stat(entry),
      // A body cut short is a lost connection; an answer with a status was handled above.
      isConnectionLoss: (error) => statusOf(error) === undefined,
    });
  }

  /** Copy, then delete: S3 has no rename. A copy made before a lost connection is not made twice. */
  async move(entry: RemoteEntry, folder: string, now = new Date()): Promise<string> {
    const dir = posix.normalize(posix.join(posix.dirname(entry.path), folder));
    const plain = `${dir === '.' ? '' : `${dir}/`}${entry.name}`;
    try {
      const source = await this.head(entry.path);
      if (!source && (await this.head(plain))) return plain;
      const to = (await this.head(plain)) ? plain + timeSuffix(now) : plain;
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: to,
          CopySource: `${this.bucket}/${entry.path.split('/').map(encodeURIComponent).join('/')}`,
          ...(entry.etag ? { CopySourceIfMatch: entry.etag } : {}),
        }),
      );
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: entry.path }));
      return to;
    } catch (error) {
      this.fail(error, `moving ${this.nameOf(entry)} to ${folder}`);
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
