import type { OptionDeclaration } from '../types.js';
import { ENCODING_OPTION_VALUES, type TextEncoding } from '../text/encoding.js';

export const CSV_DELIMITERS = { ',': ',', ';': ';', tab: '\t', '|': '|' } as const;

export const csvOptionDeclarations: Record<string, OptionDeclaration> = {
  delimiter: {
    type: 'enum',
    values: ['auto', ...Object.keys(CSV_DELIMITERS)],
    default: 'auto',
    example: ';',
    description:
      'Field separator. `auto`: the one of `,` `;` tab `|` found most often (outside quotes) on the header line.',
  },
  encoding: {
    type: 'enum',
    values: ENCODING_OPTION_VALUES,
    default: 'auto',
    example: 'windows-1252',
    description:
      '`auto`: from the byte-order mark, else weighed from the bytes: UTF-8 when valid multi-byte ' +
      'UTF-8 sequences are at least as many as bytes that cannot be UTF-8, else Windows-1252. In ' +
      'a UTF-8 file, a record holding an invalid byte is rejected (naming the byte); the others read.',
  },
  header: {
    type: 'boolean',
    default: true,
    description:
      'The first record names the columns. `false`: every record is data and the columns are named `1`, `2`, ...',
  },
  quote: {
    type: 'enum',
    values: ['"', "'"],
    default: '"',
    description: 'Quote character; inside a quoted field it is doubled.',
  },
  skipLines: {
    type: 'integer',
    default: 0,
    min: 0,
    example: 2,
    description:
      'Physical lines to skip before the header (a title line some exports write). They still count for line numbers.',
  },
  shortRecords: {
    type: 'enum',
    values: ['reject', 'pad'],
    default: 'reject',
    example: 'pad',
    description:
      'A record with fewer fields than the header: `reject` it (an error item), or `pad` it (the missing trailing fields read as empty).',
  },
  maxFieldBytes: {
    type: 'integer',
    default: 16 * 1024 * 1024,
    min: 1,
    description:
      'A field larger than this (in UTF-8 bytes) is not read: its record becomes an error and reading goes on.',
  },
};

export interface CsvOptions {
  delimiter: keyof typeof CSV_DELIMITERS | 'auto';
  encoding: TextEncoding | 'auto';
  header: boolean;
  quote: string;
  skipLines: number;
  shortRecords: 'reject' | 'pad';
  maxFieldBytes: number;
}

/** Options arrive validated against the declaration, defaults applied. */
export function csvOptions(options: Record<string, unknown>): CsvOptions {
  return options as unknown as CsvOptions;
}
