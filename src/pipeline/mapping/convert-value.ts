/**
 * The typed conversion of one text value (string, integer, decimal, boolean, date), compiled once
 * per field from its spec.
 */
import { booleanWords, parseBoolean } from '../convert/boolean.js';
import { compileDateFormat, parseDate } from '../convert/date.js';
import { defaultGroups, parseDecimal } from '../convert/decimal.js';
import { parseInteger } from '../convert/integer.js';
import type { FieldSpec } from '../definition/field-schema.js';

export type Converted = { value: unknown } | { error: string };
export type Converter = (text: string) => Converted;

/**
 * undefined for text (nothing to convert). Throws a plain Error for a bad spec (e.g. a date
 * format); the caller makes it a config issue.
 */
export function compileConverter(spec: FieldSpec): Converter | undefined {
  switch (spec.type ?? 'string') {
    case 'string':
      return undefined;
    case 'integer':
      return parseInteger;
    case 'decimal': {
      const separator = spec.decimalSeparator ?? '.';
      const format = {
        separator,
        groups: spec.groupSeparators ?? defaultGroups(separator),
        scale: spec.scale,
        round: spec.round,
      };
      return (text) => parseDecimal(text, format);
    }
    case 'boolean': {
      const words = booleanWords(spec.trueValues, spec.falseValues);
      if (!spec.negate) return (text) => parseBoolean(text, words);
      return (text) => {
        const r = parseBoolean(text, words);
        return 'value' in r ? { value: !r.value } : r;
      };
    }
    case 'date': {
      const formats = (spec.formats ?? []).map(compileDateFormat);
      return (text) => parseDate(text, formats);
    }
  }
}
