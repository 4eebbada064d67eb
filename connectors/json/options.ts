import { z } from 'zod';
import { byteLimitOption } from '../bounded-text.js';
import { ENCODING_OPTION_VALUES } from '../text/encoding.js';
import { invisibleInNamesOption } from '../text/invisible-chars.js';

export const jsonOptions = z.strictObject({
  format: z.enum(['auto', 'array', 'ndjson']).default('auto').meta({
    example: 'ndjson',
    description:
      '`array`: one JSON array of objects. `ndjson`: one object per line. `auto`: an array when the input starts with `[`, else NDJSON.',
  }),
  encoding: z.enum(ENCODING_OPTION_VALUES).default('auto').meta({
    description: '`auto`: from the byte-order mark, else UTF-8 (JSON is UTF-8 by its RFC).',
  }),
  maxRecordBytes: byteLimitOption(
    'field',
    'A record (one object, or one NDJSON line) larger than this (in UTF-8 bytes) is not read (its text is never held, only counted): it becomes an error naming its line and size, and reading goes on.',
  ),
  invisibleInNames: invisibleInNamesOption('A key of a record'),
});

export type JsonOptions = z.output<typeof jsonOptions>;
