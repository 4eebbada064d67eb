import { Readable } from 'node:stream';

/**
 * The first bytes of a stream (at least `bytes`, unless it is shorter), and a stream that gives
 * every byte again from the start: for choosing a connector by content without losing input.
 */
export async function peekStream(
  stream: Readable,
  bytes = 4096,
): Promise<{ head: Buffer; stream: Readable }> {
  const it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < bytes) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    chunks.push(chunk);
    size += chunk.length;
  }
  const head = Buffer.concat(chunks, size);
  async function* replay(): AsyncGenerator<Buffer> {
    try {
      if (head.length > 0) yield head;
      while (!done) {
        const next = await it.next();
        if (next.done) break;
        yield Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
      }
    } finally {
      await it.return?.();
    }
  }
  return { head, stream: Readable.from(replay(), { objectMode: false }) };
}
