import { stat } from 'node:fs/promises';
import type { SourceSpec, ReadMeta } from '../../../connectors/index.js';
import { counted } from '../../base/index.js';
import { isFerryError, UsageError } from '../../errors/index.js';
import { CONNECTOR_NAMES } from '../help-figures.js';
import {
  flag,
  JSON_OPTION,
  stringList,
  stringOption,
  writeOut as write,
  type Command,
} from '../command.js';

const PROGRESS_EVERY_MS = 5_000;

function parseOptions(pairs: string[]): Record<string, string> {
  const options: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0)
      throw new UsageError(`--option takes k=v (e.g. --option delimiter=";"), got "${pair}".`);
    options[pair.slice(0, eq).trim()] = pair.slice(eq + 1);
  }
  return options;
}

function parseLimit(text: string | undefined): number {
  if (text === undefined) return Infinity;
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    throw new UsageError(`--limit takes a whole number of records of at least 1, got "${text}".`);
  }
  return Number(text);
}

async function sourceSpec(file: string, pattern: string | undefined): Promise<SourceSpec> {
  if (file === '-') return { stdin: true };
  if (/^https?:\/\//i.test(file)) return { url: file };
  const { isRemoteAddress, remoteSpecOf } = await import('../../../connectors/index.js');
  if (isRemoteAddress(file)) {
    if (pattern !== undefined) throw new UsageError('--pattern goes with a local folder.');
    return remoteSpecOf(file);
  }
  const isFolder = (await stat(file).catch(() => undefined))?.isDirectory() ?? false;
  if (isFolder) return pattern === undefined ? { folder: file } : { folder: file, pattern };
  if (pattern !== undefined)
    throw new UsageError(`--pattern needs FILE to be a folder; ${file} is not.`);
  return { file };
}

function quoteDelimiter(d: unknown): string {
  return d === '\t' ? 'tab' : JSON.stringify(d);
}

/** How the encoding was decided; when detected, on what evidence. */
function encodingReason(meta: ReadMeta): string {
  const evidence = meta.encodingEvidence as { multiByte: number; invalid: number } | undefined;
  if (meta.encodingOptionOverruled) {
    return `byte-order mark, which overrules the option encoding=${String(meta.encodingOptionOverruled)}`;
  }
  if (!evidence) {
    return meta.encodingSource === 'detected'
      ? 'detected: ASCII so far'
      : String(meta.encodingSource);
  }
  return (
    `${String(meta.encodingSource)}: ${counted(evidence.multiByte, 'multi-byte sequence')}, ` +
    `${counted(evidence.invalid, 'invalid byte')}`
  );
}

/** The lines `ferry read` shows about an input before its records. */
function describe(meta: ReadMeta): string {
  const lines = [
    `source     ${String(meta.source)}`,
    `connector  ${String(meta.connector)} (chosen by ${String(meta.connectorChosenBy)})`,
  ];
  if (meta.encoding) lines.push(`encoding   ${meta.encoding} (${encodingReason(meta)})`);
  if (meta.delimiter)
    lines.push(`delimiter  ${quoteDelimiter(meta.delimiter)} (${String(meta.delimiterSource)})`);
  if (meta.format) lines.push(`format     ${String(meta.format)}`);
  if (meta.sheet)
    lines.push(`sheet      ${String(meta.sheet)} (of ${(meta.sheets as string[]).join(', ')})`);
  if (meta.header)
    lines.push(`header     ${meta.header.join(' | ')} (${meta.header.length} columns)`);
  const ignored = meta.ignoredColumns as number[] | undefined;
  if (ignored)
    lines.push(`ignored    columns ${ignored.join(', ')} (no name in the header; must stay empty)`);
  return `${lines.join('\n')}\n\n`;
}

export const readCommand: Command = {
  name: 'read',
  usage: 'read FILE [--connector NAME] [--option k=v]... [--limit N] [--json]',
  description: [
    'FILE is a path, - for stdin, an http(s) URL, a folder (its files in name order, see --pattern),',
    'or one remote object: sftp://USER@HOST[:PORT]/PATH (host key in FERRY_SFTP_HOST_KEY, password',
    'or private key in FERRY_SFTP_PASSWORD / FERRY_SFTP_PRIVATE_KEY, each also from a _FILE) or',
    's3://BUCKET/KEY (AWS_REGION, AWS_ENDPOINT_URL, credentials from the standard AWS variables).',
    'Shows what the connector found out (encoding, delimiter, header...) and each record with the',
    'physical line it starts on, before any mapping: for writing a new pipeline.',
    'With --json: an array of {line, fields} (fields: column name -> string value; for a folder',
    'each element also has its file). Records that cannot be read go to stderr with their lines.',
    '',
    'Exit codes: 0 every record read; 1 a record could not be read, or the input is not what the',
    'connector expects; 2 bad usage, an unknown connector or a bad option, a missing file, a host',
    'key that does not match; 5 a remote server that cannot be reached.',
    '',
    'Examples:',
    '  ferry read items.csv',
    '  ferry read export.txt --option delimiter=tab --option encoding=windows-1252',
    '  ferry read items.xml --option recordElement=Item --limit 5',
    '  cat users.csv | ferry read - --connector csv --json',
  ].join('\n'),
  options: {
    connector: {
      type: 'string',
      placeholder: 'NAME',
      description: `The connector (${CONNECTOR_NAMES}). Default: by extension, else by content.`,
    },
    option: {
      type: 'string',
      multiple: true,
      placeholder: 'k=v',
      description: "A connector option; docs/CONNECTORS.md lists each connector's options.",
    },
    pattern: {
      type: 'string',
      placeholder: 'GLOB',
      description: 'When FILE is a folder: the files to read (default *).',
    },
    limit: { type: 'string', placeholder: 'N', description: 'Stop after N records.' },
    ...JSON_OPTION,
  },
  positionals: [1, 1],
  async run({ args, stdin, stdout, stderr, stopSignal }) {
    const { readSource } = await import('../../../connectors/index.js');
    const { rowErrorText } = await import('../../pipeline/index.js');
    const json = flag(args, 'json');
    const limit = parseLimit(stringOption(args, 'limit'));
    const options = parseOptions(stringList(args, 'option'));
    const spec = await sourceSpec(args.positionals[0]!, stringOption(args, 'pattern'));
    const { items, meta } = readSource(spec, stringOption(args, 'connector'), options, {
      optionsSource: 'the --option values',
      stdin,
      signal: stopSignal,
    });
    const withFile = 'folder' in spec;
    let records = 0;
    let errors = 0;
    const shown: unknown[] = [];
    let progressAt = Date.now() + PROGRESS_EVERY_MS;
    /** The meta of each input, once, before its first record (for a folder, one per file). */
    const showMeta = async (): Promise<void> => {
      if (json || shown.includes(meta.source)) return;
      await write(stdout, `${shown.length > 0 ? '\n' : ''}${describe(meta)}`);
      shown.push(meta.source);
    };
    try {
      for await (const item of items) {
        if (stopSignal.aborted) break;
        await showMeta();
        if ('error' in item) {
          errors++;
          stderr.write(`${rowErrorText(item.error)}\n`);
          continue;
        }
        const { fields, source } = item.record;
        if (json) {
          const element = withFile
            ? { file: source.file, line: source.line, fields }
            : { line: source.line, fields };
          await write(stdout, `${records === 0 ? '[\n' : ',\n'}${JSON.stringify(element)}`);
        } else await write(stdout, `line ${source.line}: ${JSON.stringify(fields)}\n`);
        if (++records >= limit) break;
        if (Date.now() > progressAt) {
          stderr.write(`read ${records} records...\n`);
          progressAt = Date.now() + PROGRESS_EVERY_MS;
        }
      }
    } catch (error) {
      // Once part of the array is out, close it (stdout stays one JSON document) and report here.
      if (!isFerryError(error) || (json && records === 0)) throw error;
      if (json) await write(stdout, '\n]\n');
      stderr.write(`ferry read: ${error.message}\n`);
      return error.exitCode;
    }
    if (json) await write(stdout, records === 0 ? '[]\n' : '\n]\n');
    else {
      await showMeta();
      await write(stdout, `${counted(records, 'record')}, ${errors} unreadable\n`);
    }
    if (stopSignal.aborted) stderr.write('ferry read: stopped before the end of the input.\n');
    return errors > 0 || stopSignal.aborted ? 1 : 0;
  },
};
