import { z } from 'zod';
import { byteLimitOption } from '../bounded-text.js';
import { ENCODING_OPTION_VALUES } from '../text/encoding.js';
import { invisibleInNamesOption } from '../text/invisible-chars.js';

export const xmlOptions = z.strictObject({
  recordElement: z.string().min(1).meta({
    example: 'Item',
    description:
      'Name of the element that is one record (matched on its local name, without a namespace prefix).',
  }),
  encoding: z.enum(ENCODING_OPTION_VALUES).default('auto').meta({
    description:
      '`auto`: from the byte-order mark, else the XML declaration, else UTF-8 when the bytes are valid UTF-8, else Windows-1252.',
  }),
  maxFieldBytes: byteLimitOption(
    'field',
    "A field's text (or CDATA) or an attribute value larger than this (in UTF-8 bytes) is not read: its record becomes an error naming the field and its size, and reading goes on. A tag name or comment larger than it stops the reading.",
  ),
  maxRecordBytes: byteLimitOption(
    'record',
    'A record whose fields (names and values, in UTF-8 bytes) add up to more than this is not read (its fields are counted, not held): it becomes an error naming its size, and reading goes on.',
  ),
  maxAttributes: z
    .int()
    .min(1)
    .default(10_000)
    .meta({
      description:
        'An element with more attributes than this makes its record an error (naming the element and line) and reading goes on; ' +
        'attributes past the limit are never held in memory.',
    }),
  invisibleInNames: invisibleInNamesOption('An element or attribute name'),
});

export type XmlOptions = z.output<typeof xmlOptions>;
