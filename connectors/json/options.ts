import type { OptionDeclaration } from '../types.js';
import { ENCODING_OPTION_VALUES, type TextEncoding } from '../text/encoding.js';

export const jsonOptionDeclarations: Record<string, OptionDeclaration> = {
  format: {
    type: 'enum',
    values: ['auto', 'array', 'ndjson'],
    default: 'auto',
    example: 'ndjson',
    description:
      '`array`: one JSON array of objects. `ndjson`: one object per line. `auto`: an array when the input starts with `[`, else NDJSON.',
  },
  encoding: {
    type: 'enum',
    values: ENCODING_OPTION_VALUES,
    default: 'auto',
    description: '`auto`: from the byte-order mark, else UTF-8 (JSON is UTF-8 by its RFC).',
  },
  maxRecordBytes: {
    type: 'integer',
    default: 16 * 1024 * 1024,
    min: 1,
    description:
      'A record (one object) larger than this is not read: it becomes an error and reading goes on.',
  },
};

export interface JsonOptions {
  format: 'auto' | 'array' | 'ndjson';
  encoding: TextEncoding | 'auto';
  maxRecordBytes: number;
}

export function jsonOptions(options: Record<string, unknown>): JsonOptions {
  return options as unknown as JsonOptions;
}
