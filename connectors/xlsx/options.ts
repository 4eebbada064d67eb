import { z } from 'zod';
import { byteLimitOption } from '../bounded-text.js';
import { invisibleInNamesOption } from '../text/invisible-chars.js';

export const xlsxOptions = z.strictObject({
  sheet: z.string().min(1).optional().meta({
    example: 'Items',
    description:
      'The sheet to read: its name, or its 1-based position among the sheets (a name wins when a sheet is named like a number). Default: the first sheet.',
  }),
  headerRow: z.int().min(1).optional().meta({
    example: 3,
    description:
      'The row that names the columns. Default: the first row that has a value in any cell.',
  }),
  maxPartBytes: z
    .int()
    .min(1)
    .default(1024 * 1024 * 1024)
    .meta({
      description:
        'A part of the workbook (a sheet, the shared strings) that unpacks to more than this is refused before it is unpacked.',
    }),
  maxCompressionRatio: z.int().min(2).default(200).meta({
    description:
      'A part larger than 1 MiB unpacked that is more than this many times smaller packed is refused as a zip bomb before it is unpacked (spreadsheets pack 5-50 times; a bomb packs a thousand times).',
  }),
  maxFieldBytes: byteLimitOption(
    'field',
    "A cell's text (inline or a shared string) larger than this (in UTF-8 bytes) is not read: its row becomes an error naming the cell and its size, and reading goes on. A tag or attribute value larger than this stops the reading, naming the part and line.",
  ),
  invisibleInNames: invisibleInNamesOption('A column name'),
});

export type XlsxOptions = z.output<typeof xlsxOptions>;
