/**
 * The one entry point for reading: a source (file, folder, stdin, URL, SFTP, S3) through a connector (named,
 * or chosen by extension, media type or content) into ReadItems. Streams end up closed however
 * the reading ends (to the end, a `break`, an error).
 */
import { isFerryError } from '../src/errors/index.js';
import { NoRecordsError, SourceError } from './errors.js';
import {
  connectorForContent,
  connectorForMediaType,
  connectorForPath,
  getConnector,
} from './registry.js';
import { openSources } from './sources/open-sources.js';
import { peekStream } from './sources/peek.js';
import type { OpenedSource, SourceContext, SourceSpec } from './sources/types.js';
import type { Connector, ConnectorReader, ReadItem, ReadMeta } from './types.js';

export type { SourceSpec } from './sources/types.js';

export interface ReadSourceContext extends SourceContext {
  /** Path of the options in their config, for errors (`source.options` -> `source.options.delimiter`). */
  optionsPath?: string;
  /** Where the options came from (a pipeline file, the command line), for errors. */
  optionsSource?: string;
  /**
   * An input that gives no record and no error (an empty file, a header alone, CR-only lines a
   * parser missed): `error` (default) refuses it, `allow` reads it as no records (a change
   * feed on a quiet day).
   */
  emptyInput?: 'error' | 'allow';
}

export interface ReadSourceResult {
  items: AsyncIterable<ReadItem>;
  /**
   * What the connector found out (encoding, delimiter, header...), plus `connector` and `source`;
   * filled in before the first item of each input. For a folder, `files` holds each file's meta
   * and the top-level keys are those of the file being read.
   */
  meta: ReadMeta;
}

async function chooseConnector(
  source: OpenedSource,
  given: Connector | undefined,
): Promise<{ connector: Connector; chosenBy: string }> {
  if (given) return { connector: given, chosenBy: 'option' };
  const byPath = connectorForPath(source.hint);
  if (byPath) return { connector: byPath, chosenBy: 'extension' };
  const byType = connectorForMediaType(source.contentType);
  if (byType) return { connector: byType, chosenBy: 'media type' };
  const peeked = await peekStream(source.stream);
  source.stream = peeked.stream;
  return { connector: connectorForContent(peeked.head), chosenBy: 'content' };
}

function asSourceError(error: unknown, name: string): unknown {
  if (isFerryError(error)) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return new SourceError(`Reading ${name} failed: ${code ?? (error as Error)?.message ?? error}.`, {
    file: name,
  });
}

/**
 * Reads `spec` with the connector named `connector` (default: by extension, media type, then
 * content) and its `options`. A bad connector name or bad options throw at once when the
 * connector is named; otherwise when the input is opened.
 */
export function readSource(
  spec: SourceSpec,
  connector?: string,
  options: Record<string, unknown> = {},
  context: ReadSourceContext = {},
): ReadSourceResult {
  const meta: ReadMeta = {};
  const given = connector === undefined ? undefined : getConnector(connector);
  // Options are checked once per connector (a folder may hold files of several kinds).
  const readers = new Map<string, ConnectorReader>();
  const readerOf = (c: Connector): ConnectorReader => {
    let reader = readers.get(c.name);
    if (!reader) {
      reader = c.reader(options, context.optionsPath ?? '', context.optionsSource);
      readers.set(c.name, reader);
    }
    return reader;
  };
  if (given) readerOf(given);
  const many =
    'folder' in spec ||
    ('sftp' in spec && spec.sftp.pattern !== undefined) ||
    ('s3' in spec && spec.s3.key === undefined);
  if (many) meta.files = [];

  async function* items(): AsyncGenerator<ReadItem> {
    for await (const source of openSources(spec, context)) {
      // A stop ends a read that waits for bytes (stdin, a slow URL), not only the next record.
      const stop = (): void => void source.stream.destroy(context.signal?.reason as Error);
      // Stopped before the source opened: an abort listener added now would never fire.
      if (context.signal?.aborted) stop();
      else context.signal?.addEventListener('abort', stop, { once: true });
      try {
        const { connector: c, chosenBy } = await chooseConnector(source, given);
        const fileMeta: ReadMeta = many ? {} : meta;
        Object.assign(fileMeta, {
          source: source.name,
          connector: c.name,
          connectorChosenBy: chosenBy,
        });
        if (many) (meta.files as ReadMeta[]).push(fileMeta);
        const input = {
          stream: source.stream,
          name: source.name,
          ...(source.path ? { path: source.path } : {}),
        };
        let first = true;
        for await (const item of readerOf(c)(input, fileMeta)) {
          if (first && many) Object.assign(meta, fileMeta, { files: meta.files });
          first = false;
          yield item;
        }
        if (first && many) Object.assign(meta, fileMeta, { files: meta.files });
        if (first && context.emptyInput !== 'allow') {
          throw new NoRecordsError(
            `${source.name} holds no records${fileMeta.header?.length ? ' (a header alone)' : ''}, ` +
              'which would read as a catalog with nothing in it: check that the export was written ' +
              'whole (a change feed may be empty: changes-mode pipelines accept it).',
            { file: source.name },
          );
        }
      } catch (error) {
        throw asSourceError(error, source.name);
      } finally {
        context.signal?.removeEventListener('abort', stop);
        source.stream.destroy();
      }
    }
  }
  return { items: items(), meta };
}
