/** Streams one XML part of a workbook through saxes; a malformed part is a ConnectorError. */
import type { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';
import { ConnectorError } from '../errors.js';
import { drainText } from '../sax-text.js';
import type { ZipArchive } from './zip.js';

type PlainOptions = { xmlns: false; position: true };
export type PartParser = SaxesParser<PlainOptions>;

/** Held text handed on to the handlers once it is this long. */
const DRAIN_CHARS = 64 * 1024;

/** Local name of a tag or attribute (`x:row` -> `row`). */
export function local(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/**
 * Feeds the part (opened from the archive) to a parser set up by `listen`; after each chunk, `drain` may take what the
 * handlers collected (so a sheet is yielded row batch by row batch). A long text reaches the
 * handlers in pieces (sax-text.ts); saxes holds a tag whole until it ends, so a tag or attribute
 * value longer than maxFieldBytes stops the reading.
 */
export async function* parsePart<T>(
  zip: ZipArchive,
  part: string,
  listen: (parser: PartParser) => void,
  drain: () => T | undefined,
): AsyncGenerator<T> {
  const file = zip.name;
  const maxRunChars = zip.limits.maxFieldBytes;
  const stream = await zip.open(part);
  const parser: PartParser = new SaxesParser<PlainOptions>({ xmlns: false, position: true });
  listen(parser);
  const decoder = new TextDecoder('utf-8');
  let run = 0;
  const feed = (text: string | null): void => {
    try {
      if (text === null) parser.close();
      else parser.write(text);
    } catch (error) {
      throw new ConnectorError(
        `${file}: the workbook part ${part} is not well-formed XML (line ${parser.line}): ${(error as Error).message}`,
        { file, part },
      );
    }
    if (text === null) return;
    const lastTag = text.lastIndexOf('<');
    run = lastTag === -1 ? run + text.length : text.length - lastTag;
    // A cell's long text reaches its handler in pieces (which bound what they keep); a tag or an
    // attribute value that long is held whole by saxes until it ends, so the reading stops.
    const inText = drainText(parser, DRAIN_CHARS);
    if (run > maxRunChars && !inText) {
      throw new ConnectorError(
        `${file}: the workbook part ${part} holds a tag or attribute value longer than ` +
          `maxFieldBytes (${maxRunChars}) near line ${parser.line}: reading stopped.`,
        { file, part, line: parser.line },
      );
    }
  };
  for await (const chunk of unpacked(stream, file, part)) {
    feed(decoder.decode(chunk, { stream: true }));
    const out = drain();
    if (out !== undefined) yield out;
  }
  feed(decoder.decode());
  feed(null);
  const out = drain();
  if (out !== undefined) yield out;
}

/** The part's bytes; a zip entry that unpacks to more than it declares is cut off by yauzl. */
async function* unpacked(stream: Readable, file: string, part: string): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (error) {
    throw new ConnectorError(
      `${file}: the workbook part ${part} cannot be unpacked: ${(error as Error).message}.`,
      { file, part },
    );
  }
}

/** Runs a part through its handlers to the end (for parts read whole: workbook, styles). */
export async function readPart(
  zip: ZipArchive,
  part: string,
  listen: (parser: PartParser) => void,
): Promise<void> {
  // Nothing is drained, so the generator never yields: one next() runs it to the end.
  await parsePart(zip, part, listen, () => undefined).next();
}
