import { z } from 'zod';
import { byteLimitOption } from '../bounded-text.js';
import { ENCODING_OPTION_VALUES } from '../text/encoding.js';
import { invisibleInNamesOption } from '../text/invisible-chars.js';

const DELIMITER_NAMES = [',', ';', 'tab', '|'] as const;
export const CSV_DELIMITERS: Record<(typeof DELIMITER_NAMES)[number], string> = {
  ',': ',',
  ';': ';',
  tab: '\t',
  '|': '|',
};

export const csvOptions = z.strictObject({
  delimiter: z
    .enum(['auto', ...DELIMITER_NAMES])
    .default('auto')
    .meta({
      example: ';',
      description:
        'Field separator. `auto`: the one of `,` `;` tab `|` found most often (outside quotes) on the header line.',
    }),
  encoding: z
    .enum(ENCODING_OPTION_VALUES)
    .default('auto')
    .meta({
      example: 'windows-1252',
      description:
        '`auto`: from the byte-order mark, else weighed from the bytes: UTF-8 when valid multi-byte ' +
        'UTF-8 sequences are at least as many as bytes that cannot be UTF-8, else Windows-1252. In ' +
        'a UTF-8 file, a record holding an invalid byte is rejected (naming the byte); the others read.',
    }),
  header: z.boolean().default(true).meta({
    description:
      'The first record names the columns. `false`: every record is data and the columns are named `1`, `2`, ...',
  }),
  quote: z
    .enum(['"', "'"])
    .default('"')
    .meta({ description: 'Quote character; inside a quoted field it is doubled.' }),
  skipLines: z.int().min(0).default(0).meta({
    example: 2,
    description:
      'Physical lines to skip before the header (a title line some exports write). They still count for line numbers.',
  }),
  shortRecords: z.enum(['reject', 'pad']).default('reject').meta({
    example: 'pad',
    description:
      'A record with fewer fields than the header: `reject` it (an error item), or `pad` it (the missing trailing fields read as empty).',
  }),
  maxFieldBytes: byteLimitOption(
    'field',
    'A field larger than this (in UTF-8 bytes) is not read (its text is never held, only counted): its record becomes an error naming its line and size, and reading goes on.',
  ),
  maxRecordBytes: byteLimitOption(
    'record',
    'A record whose fields add up to more than this (in UTF-8 bytes) is not read (its fields are counted, not held): it becomes an error naming its line and size, and reading goes on.',
  ),
  invisibleInNames: invisibleInNamesOption('A column name'),
});

export type CsvOptions = z.output<typeof csvOptions>;
