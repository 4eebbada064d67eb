import type { OptionDeclaration } from '../types.js';
import { ENCODING_OPTION_VALUES, type TextEncoding } from '../text/encoding.js';

export const xmlOptionDeclarations: Record<string, OptionDeclaration> = {
  recordElement: {
    type: 'string',
    required: true,
    example: 'Item',
    description:
      'Name of the element that is one record (matched on its local name, without a namespace prefix).',
  },
  encoding: {
    type: 'enum',
    values: ENCODING_OPTION_VALUES,
    default: 'auto',
    description:
      '`auto`: from the byte-order mark, else the XML declaration, else UTF-8 when the bytes are valid UTF-8, else Windows-1252.',
  },
  maxFieldBytes: {
    type: 'integer',
    default: 16 * 1024 * 1024,
    min: 1,
    description:
      "A field's text larger than this makes its record an error; a single text or tag larger than it stops the reading.",
  },
};

export interface XmlOptions {
  recordElement: string;
  encoding: TextEncoding | 'auto';
  maxFieldBytes: number;
}

export function xmlOptions(options: Record<string, unknown>): XmlOptions {
  return options as unknown as XmlOptions;
}
