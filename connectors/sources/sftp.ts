/**
 * Files on an SFTP server (ssh2-sftp-client over ssh2). The host key is checked before anything
 * is sent: a server presenting another key stops the read (HostKeyMismatchError naming the
 * fingerprint it saw). One connection serves a whole run; an operation that finds it lost
 * reconnects (a few tries with backoff), and a server that cannot be reached is
 * SourceUnreachableError (exit 5). Messages name user, host, port and path, never a secret.
 */
import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import SftpClient from 'ssh2-sftp-client';
import { isFerryError } from '../../src/errors/index.js';
import {
  HostKeyMismatchError,
  SourceError,
  SourceNotFoundError,
  SourceUnreachableError,
} from '../errors.js';
import { globToRegExp } from './glob.js';
import { fingerprintOf, parseHostKey } from './host-key.js';
import { timeSuffix, type RemoteDrop, type RemoteEntry, type SftpSpec } from './remote-types.js';
import { resumableRead } from './resumable-read.js';

/** Time allowed for TCP, the SSH handshake and authentication. */
const READY_TIMEOUT_MS = 15_000;
/** A silent connection is declared lost after KEEPALIVE_MS * KEEPALIVE_COUNT. */
const KEEPALIVE_MS = 5_000;
const KEEPALIVE_COUNT = 3;
/** Tries of a connection (and of an operation whose connection dropped), with these pauses. */
const CONNECT_TRIES = 4;
const BACKOFF_MS = [500, 1_500, 4_000];

/** The algorithms that present a key of each type. */
const HOST_KEY_ALGORITHMS: Record<string, string[]> = {
  'ssh-rsa': ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'],
};

/** Errors of an operation that mean the connection went away, not that the server said no. */
const LOSS_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_NOT_CONNECTED',
]);

interface Connection {
  client: SftpClient;
  alive: boolean;
}

interface SshLevelError extends Error {
  level?: string;
  code?: string;
}

export class SftpDrop implements RemoteDrop {
  readonly where: string;
  readonly many: boolean;
  private readonly expected;
  private current: Connection | undefined;
  private connecting: Promise<Connection> | undefined;

  constructor(private readonly spec: SftpSpec) {
    const port = spec.port ?? 22;
    this.where = `sftp://${spec.username}@${spec.host}:${port}${posix.resolve('/', spec.path)}`;
    this.many = spec.pattern !== undefined;
    try {
      this.expected = parseHostKey(spec.hostKey);
    } catch (error) {
      throw new SourceNotFoundError(`${this.where}: ${(error as Error).message}.`);
    }
  }

  nameOf(entry: RemoteEntry): string {
    const port = this.spec.port ?? 22;
    return `sftp://${this.spec.username}@${this.spec.host}:${port}${posix.resolve('/', entry.path)}`;
  }

  /** The live connection, connecting (with retries) when there is none. */
  private async connection(): Promise<Connection> {
    if (this.current?.alive) return this.current;
    this.connecting ??= this.connectWithRetries().finally(() => (this.connecting = undefined));
    this.current = await this.connecting;
    return this.current;
  }

  private async connectWithRetries(): Promise<Connection> {
    let last: unknown;
    for (let attempt = 0; attempt < CONNECT_TRIES; attempt++) {
      if (attempt > 0) await sleep(BACKOFF_MS[Math.min(attempt - 1, BACKOFF_MS.length - 1)]);
      try {
        return await this.connect();
      } catch (error) {
        if (isFerryError(error)) throw error;
        last = error;
      }
    }
    const code = (last as SshLevelError).code;
    const reason = code && code !== 'ERR_GENERIC_CLIENT' ? code : (last as Error).message;
    throw new SourceUnreachableError(
      `The SFTP server ${this.spec.host}:${this.spec.port ?? 22} cannot be reached (${CONNECT_TRIES} tries): ${reason}. Check the host, the port and the network, then run again.`,
      { host: this.spec.host, port: this.spec.port ?? 22 },
      { cause: last },
    );
  }

  private async connect(): Promise<Connection> {
    const noop = (): void => undefined;
    const client = new SftpClient('ferry', { error: noop, end: noop, close: noop });
    const connection: Connection = { client, alive: false };
    let seen: string | undefined;
    let raw: SshLevelError | undefined;
    const ssh = (client as unknown as { client: NodeJS.EventEmitter }).client;
    ssh.on('error', (error: SshLevelError) => (raw ??= error));
    ssh.on('close', () => (connection.alive = false));
    const algorithms = this.expected.type
      ? (HOST_KEY_ALGORITHMS[this.expected.type] ?? [this.expected.type])
      : undefined;
    try {
      await client.connect({
        host: this.spec.host,
        port: this.spec.port ?? 22,
        username: this.spec.username,
        ...(this.spec.password !== undefined ? { password: this.spec.password } : {}),
        ...(this.spec.privateKey !== undefined ? { privateKey: this.spec.privateKey } : {}),
        ...(this.spec.passphrase !== undefined ? { passphrase: this.spec.passphrase } : {}),
        ...(algorithms ? { algorithms: { serverHostKey: algorithms as never } } : {}),
        hostVerifier: (key: Buffer) => {
          seen = fingerprintOf(key);
          return seen === this.expected.fingerprint;
        },
        readyTimeout: READY_TIMEOUT_MS,
        keepaliveInterval: KEEPALIVE_MS,
        keepaliveCountMax: KEEPALIVE_COUNT,
      });
    } catch (error) {
      await client.end().catch(noop);
      const where = `${this.spec.host}:${this.spec.port ?? 22}`;
      if (seen !== undefined && seen !== this.expected.fingerprint) {
        throw new HostKeyMismatchError(
          `The SFTP server ${where} presented the host key ${seen}, not the configured ${this.expected.fingerprint}: nothing was read. If the server's key really changed, put the new key or fingerprint in hostKey.`,
          { host: this.spec.host, seen, expected: this.expected.fingerprint },
        );
      }
      if (raw?.level === 'client-authentication') {
        throw new SourceError(
          `The SFTP server ${where} refused user ${this.spec.username} (${this.spec.password !== undefined ? 'password' : 'private key'}): check the credentials.`,
          { host: this.spec.host, username: this.spec.username },
        );
      }
      throw raw ?? error;
    }
    connection.alive = true;
    return connection;
  }

  /**
   * Runs `op` on the connection; when the connection was lost under it, reconnects and runs it
   * again (operations here are reads, or moves that check where the file is first).
   */
  private async withConnection<T>(op: (client: SftpClient) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const connection = await this.connection();
      try {
        return await op(connection.client);
      } catch (error) {
        if (isFerryError(error)) throw error;
        // The close event may land just after the failed request's answer.
        await new Promise((resolve) => setImmediate(resolve));
        if (!this.isLoss(error, connection)) throw error;
        connection.alive = false;
        if (attempt + 1 >= CONNECT_TRIES) {
          throw new SourceUnreachableError(
            `The connection to the SFTP server ${this.spec.host}:${this.spec.port ?? 22} kept dropping (${CONNECT_TRIES} tries): check the server and the network, then run again.`,
            { host: this.spec.host, port: this.spec.port ?? 22 },
            { cause: error },
          );
        }
        await sleep(BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]);
      }
    }
  }

  private isLoss(error: unknown, connection?: Connection): boolean {
    if (error instanceof SourceUnreachableError) return true;
    if (connection && !connection.alive) return true;
    const { code, message } = error as SshLevelError;
    return (
      (code !== undefined && LOSS_CODES.has(code)) ||
      /No SFTP connection|Unexpected (end|close)|Not connected|No response/i.test(message ?? '')
    );
  }

  private fail(error: unknown, what: string): never {
    if (isFerryError(error)) throw error;
    const code = (error as { code?: string | number }).code;
    // ssh2 gives SFTP's status 2 (no such file); ssh2-sftp-client ENOENT.
    if (code === 'ENOENT' || code === 2) {
      throw new SourceNotFoundError(`${what}: no such file or folder on the server.`, {
        source: what,
      });
    }
    throw new SourceError(`${what}: ${code ?? (error as Error).message}.`, { source: what });
  }

  async list(): Promise<RemoteEntry[]> {
    const path = this.spec.path;
    try {
      return await this.withConnection(async (client) => {
        if (this.spec.pattern === undefined) {
          const stats = await client.stat(path);
          if (stats.isDirectory) {
            throw new SourceNotFoundError(
              `${this.where} is a folder: give source.sftp.pattern (e.g. "*.csv") to read its files.`,
            );
          }
          return [
            { name: posix.basename(path), path, size: stats.size, mtimeMs: stats.modifyTime },
          ];
        }
        const match = globToRegExp(this.spec.pattern);
        const files = await client.list(path);
        return files
          .filter((f) => f.type === '-' && match.test(f.name))
          .map((f) => ({
            name: f.name,
            path: posix.join(path, f.name),
            size: f.size,
            mtimeMs: f.modifyTime,
          }))
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      });
    } catch (error) {
      this.fail(error, this.where);
    }
  }

  async stat(entry: RemoteEntry): Promise<RemoteEntry | undefined> {
    return await this.withConnection(async (client) => {
      if ((await client.exists(entry.path)) !== '-') return undefined;
      const stats = await client.stat(entry.path);
      return { ...entry, size: stats.size, mtimeMs: stats.modifyTime };
    });
  }

  open(entry: RemoteEntry): Readable {
    const name = this.nameOf(entry);
    return resumableRead({
      name,
      entry,
      openAt: async (offset) =>
        await this.withConnection(async (client) => {
          const stream = client.createReadStream(entry.path, { start: offset });
          // An open that fails (no such file, no permission) errors the stream at once.
          await new Promise<void>((resolve, reject) => {
            stream.once('open', () => resolve());
            stream.once('error', reject);
          });
          return stream as unknown as Readable;
        }),
      stat: async () => await this.stat(entry),
      isConnectionLoss: (error) => this.isLoss(error, this.current),
    });
  }

  async move(entry: RemoteEntry, folder: string, now = new Date()): Promise<string> {
    const target = posix.resolve(posix.dirname(entry.path), folder);
    try {
      return await this.withConnection(async (client) => {
        if ((await client.exists(target)) !== 'd') await client.mkdir(target, true);
        const plain = posix.join(target, entry.name);
        // A rename that went through before the connection dropped is not tried again.
        if (!(await client.exists(entry.path)) && (await client.exists(plain))) return plain;
        const to = (await client.exists(plain)) ? plain + timeSuffix(now) : plain;
        await client.rename(entry.path, to);
        return to;
      });
    } catch (error) {
      this.fail(error, `moving ${this.nameOf(entry)} to ${folder}`);
    }
  }

  async close(): Promise<void> {
    const connection = this.current;
    this.current = undefined;
    if (connection?.alive) await connection.client.end().catch(() => undefined);
  }
}
