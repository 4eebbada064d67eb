/**
 * A remote file's bytes as one stream, whatever happens to the connection: when it drops midway
 * (or the stream ends short of the file's size), the read reconnects and goes on from the last
 * byte received, after checking the file is still the one being read. Nothing is held beyond the
 * chunk being passed on.
 */
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { isFerryError } from '../../src/errors/index.js';
import { SourceError, SourceUnreachableError } from '../errors.js';
import type { RemoteEntry } from './remote-types.js';

export interface ResumableRead {
  /** What messages call the file. */
  name: string;
  entry: RemoteEntry;
  /** A stream of the file's bytes from `offset` (reconnecting first when the connection is gone). */
  openAt(offset: number): Promise<Readable>;
  /** The file now (after a lost connection): undefined when it is gone. */
  stat(): Promise<RemoteEntry | undefined>;
  /** Reconnections of one read before it gives up (default 3). */
  retries?: number;
  /** Whether the error is a lost or refused connection worth another try. */
  isConnectionLoss(error: unknown): boolean;
}

const BACKOFF_MS = [250, 1_000, 3_000, 5_000];

function sameFile(a: RemoteEntry, b: RemoteEntry): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.etag === b.etag;
}

async function* bytes(read: ResumableRead): AsyncGenerator<Buffer> {
  const { entry, name } = read;
  const retries = read.retries ?? 3;
  let offset = 0;
  let losses = 0;
  for (;;) {
    let lost: unknown;
    let stream: Readable | undefined;
    try {
      stream = await read.openAt(offset);
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        offset += chunk.length;
        yield chunk;
      }
      if (offset >= entry.size) return;
      lost = new Error(`the stream ended at byte ${offset} of ${entry.size}`);
    } catch (error) {
      if (isFerryError(error) && !(error instanceof SourceUnreachableError)) throw error;
      if (!(error instanceof SourceUnreachableError) && !read.isConnectionLoss(error)) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new SourceError(
          `Reading ${name} failed at byte ${offset}: ${code ?? (error as Error).message}.`,
          { file: name },
        );
      }
      lost = error;
    } finally {
      // Closing the remote handle can still fail once the connection is gone: nothing to do then.
      stream?.on('error', () => undefined);
      stream?.destroy();
    }
    if (++losses > retries) {
      throw new SourceUnreachableError(
        `The connection to ${name} was lost ${losses} times while reading it (at byte ${offset} of ${entry.size}): check the server and the network, then run again.`,
        { file: name, offset, size: entry.size },
        { cause: lost },
      );
    }
    await sleep(BACKOFF_MS[Math.min(losses - 1, BACKOFF_MS.length - 1)]);
    const now = await read.stat().catch((error: unknown) => {
      if (isFerryError(error) && !(error instanceof SourceUnreachableError)) throw error;
      return entry; // not reachable yet: the next open says so, and counts as a loss
    });
    if (!now || !sameFile(now, entry)) {
      throw new SourceError(
        `${name} ${now ? 'changed' : 'disappeared'} while it was read (the connection was lost at byte ${offset}): it is left for the next run.`,
        { file: name },
      );
    }
  }
}

export function resumableRead(read: ResumableRead): Readable {
  return Readable.from(bytes(read), { objectMode: false });
}
