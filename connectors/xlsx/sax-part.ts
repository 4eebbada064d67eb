/** Streams one XML part of a workbook through saxes; a malformed part is a ConnectorError. */
import type { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';
import { ConnectorError } from '../errors.js';

type PlainOptions = { xmlns: false; position: true };
export type PartParser = SaxesParser<PlainOptions>;

/** Local name of a tag or attribute (`x:row` -> `row`). */
export function local(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/**
 * Feeds the part to a parser set up by `listen`; after each chunk, `drain` may take what the
 * handlers collected (so a sheet is yielded row batch by row batch).
 */
export async function* parsePart<T>(
  stream: Readable,
  file: string,
  part: string,
  listen: (parser: PartParser) => void,
  drain: () => T | undefined,
): AsyncGenerator<T> {
  const parser: PartParser = new SaxesParser<PlainOptions>({ xmlns: false, position: true });
  listen(parser);
  const decoder = new TextDecoder('utf-8');
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
  };
  for await (const chunk of stream) {
    feed(decoder.decode(chunk as Buffer, { stream: true }));
    const out = drain();
    if (out !== undefined) yield out;
  }
  feed(decoder.decode());
  feed(null);
  const out = drain();
  if (out !== undefined) yield out;
}

/** Runs a part through its handlers to the end (for parts read whole: workbook, styles). */
export async function readPart(
  stream: Readable,
  file: string,
  part: string,
  listen: (parser: PartParser) => void,
): Promise<void> {
  // Nothing is drained, so the generator never yields: one next() runs it to the end.
  await parsePart(stream, file, part, listen, () => undefined).next();
}
