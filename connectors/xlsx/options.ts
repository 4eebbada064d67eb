import type { OptionDeclaration } from '../types.js';

export const xlsxOptionDeclarations: Record<string, OptionDeclaration> = {
  sheet: {
    type: 'string',
    example: 'Items',
    description:
      'The sheet to read: its name, or its 1-based position among the sheets (a name wins when a sheet is named like a number). Default: the first sheet.',
  },
  headerRow: {
    type: 'integer',
    min: 1,
    example: 3,
    description:
      'The row that names the columns. Default: the first row that has a value in any cell.',
  },
  maxPartBytes: {
    type: 'integer',
    default: 1024 * 1024 * 1024,
    min: 1,
    description:
      'A part of the workbook (a sheet, the shared strings) that unpacks to more than this is refused before it is unpacked.',
  },
  maxCompressionRatio: {
    type: 'integer',
    default: 200,
    min: 2,
    description:
      'A part larger than 1 MiB unpacked that is more than this many times smaller packed is refused as a zip bomb before it is unpacked (spreadsheets pack 5-50 times; a bomb packs a thousand times).',
  },
  maxFieldBytes: {
    type: 'integer',
    default: 16 * 1024 * 1024,
    min: 1,
    description:
      'A cell text (or any run of XML without a tag) larger than this stops the reading, naming the part and line.',
  },
};

export interface XlsxOptions {
  sheet?: string;
  headerRow?: number;
  maxPartBytes: number;
  maxCompressionRatio: number;
  maxFieldBytes: number;
}

export function xlsxOptions(options: Record<string, unknown>): XlsxOptions {
  return options as unknown as XlsxOptions;
}
