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
};

export interface XlsxOptions {
  sheet?: string;
  headerRow?: number;
}

export function xlsxOptions(options: Record<string, unknown>): XlsxOptions {
  return options as XlsxOptions;
}
