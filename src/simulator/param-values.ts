/**
 * Path, query and header values arrive as text; a described parameter's schema says what they are.
 * `?page=2` against `{type: integer}` is the number 2, `?ids=a&ids=b` against an array is
 * `["a", "b"]` (form style, exploded: OpenAPI's default for query parameters).
 */
import { isSchemaObject, typesOf, type Schema } from '../interface/index.js';

const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

function scalar(text: string, schema: Schema | undefined): unknown {
  const types = schema ? typesOf(schema) : [];
  if ((types.includes('integer') || types.includes('number')) && NUMBER.test(text)) {
    return Number(text);
  }
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** The value a parameter's texts stand for under its schema (undefined schema: the text). */
export function paramValue(texts: readonly string[], schema: Schema | undefined): unknown {
  if (schema && (typesOf(schema).includes('array') || isSchemaObject(schema.items))) {
    const items = isSchemaObject(schema.items) ? schema.items : undefined;
    return texts.map((text) => scalar(text, items));
  }
  return scalar(texts[0] ?? '', schema);
}
