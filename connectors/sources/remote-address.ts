/**
 * `sftp://[user@]host[:port]/path` and `s3://bucket/key` addresses, as `ferry read` and
 * `ferry plan --file` take them: one object. What the address cannot carry comes from `base` (a
 * pipeline's own source on the same server) or from the environment: FERRY_SFTP_HOST_KEY,
 * FERRY_SFTP_PASSWORD or FERRY_SFTP_PRIVATE_KEY (each also from its _FILE), and for S3 the
 * standard AWS variables. A password in the address is refused: it would show in `ps`.
 */
import { envValue } from '../../src/config/index.js';
import { UsageError } from '../../src/errors/index.js';
import type { S3Spec, SftpSpec } from './remote-types.js';

/** A remote spec as messages show it: sftp://user@host:port/path or s3://bucket/key-or-prefix. */
export function remoteWhere(spec: { sftp: SftpSpec } | { s3: S3Spec }): string {
  if ('s3' in spec) return `s3://${spec.s3.bucket}/${spec.s3.key ?? spec.s3.prefix ?? ''}`;
  const { username, host, port, path } = spec.sftp;
  return `sftp://${username}@${host}:${port ?? 22}${path.startsWith('/') ? path : `/${path}`}`;
}

export function isRemoteAddress(text: string): boolean {
  return /^(sftp|s3):\/\//i.test(text);
}

function fromEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const found = envValue(env, name);
  if ('problem' in found && found.problem) throw new UsageError(`${found.problem}.`);
  return found.value;
}

export function remoteSpecOf(
  address: string,
  base?: { sftp?: SftpSpec; s3?: S3Spec },
  env: NodeJS.ProcessEnv = process.env,
): { sftp: SftpSpec } | { s3: S3Spec } {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new UsageError('The address is not a valid sftp:// or s3:// URL.');
  }
  const path = decodeURIComponent(url.pathname);
  if (url.protocol === 's3:') {
    const key = path.replace(/^\//, '');
    if (!url.hostname || !key) {
      throw new UsageError(
        `Expected s3://BUCKET/KEY (one object), got s3://${url.hostname}${path}.`,
      );
    }
    const same = base?.s3?.bucket === url.hostname ? base.s3 : undefined;
    return { s3: { ...same, bucket: url.hostname, key } };
  }
  if (url.password) {
    throw new UsageError(
      'Put no password in an sftp:// address (it shows in the process list): set FERRY_SFTP_PASSWORD or FERRY_SFTP_PASSWORD_FILE.',
    );
  }
  const port = url.port ? Number(url.port) : 22;
  const same =
    base?.sftp && base.sftp.host === url.hostname && (base.sftp.port ?? 22) === port
      ? base.sftp
      : undefined;
  const username = decodeURIComponent(url.username) || same?.username;
  const hostKey = fromEnv(env, 'FERRY_SFTP_HOST_KEY') ?? same?.hostKey;
  const password = fromEnv(env, 'FERRY_SFTP_PASSWORD');
  const privateKey = fromEnv(env, 'FERRY_SFTP_PRIVATE_KEY');
  if (!username)
    throw new UsageError(`Give the user in the address: sftp://USER@${url.host}${path}.`);
  if (!hostKey) {
    throw new UsageError(
      `The host key of ${url.host} is needed: set FERRY_SFTP_HOST_KEY to its public key or SHA256 fingerprint (ssh-keyscan ${url.hostname} | ssh-keygen -lf -).`,
    );
  }
  const credentials =
    password !== undefined
      ? { password }
      : privateKey !== undefined
        ? { privateKey }
        : same
          ? {
              ...(same.password !== undefined ? { password: same.password } : {}),
              ...(same.privateKey !== undefined ? { privateKey: same.privateKey } : {}),
              ...(same.passphrase !== undefined ? { passphrase: same.passphrase } : {}),
            }
          : undefined;
  if (!credentials) {
    throw new UsageError(
      'Set FERRY_SFTP_PASSWORD or FERRY_SFTP_PRIVATE_KEY (or their _FILE variables) for the SFTP server.',
    );
  }
  return { sftp: { host: url.hostname, port, username, hostKey, ...credentials, path } };
}
