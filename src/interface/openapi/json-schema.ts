/**
 * Reading a description's schemas as JSON Schema: OpenAPI 3.1 schemas are JSON Schema 2020-12;
 * a 3.0 schema's `nullable: true` means its type also admits null, and its boolean
 * `exclusiveMinimum`/`exclusiveMaximum` are draft-04's. `toJsonSchema` turns a 3.0 schema into the
 * 2020-12 form (so one validator, ajv's 2020 build, serves both); `typesOf` reads either.
 */
import type { Schema } from './described-operations.js';

export const isSchemaObject = (v: unknown): v is Schema =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/** The JSON types a schema names (`type` string or array; 3.0 `nullable` adds null). */
export function typesOf(schema: Schema): string[] {
  const t = schema.type;
  const types = Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : [];
  return schema.nullable === true && types.length > 0 && !types.includes('null')
    ? [...types, 'null']
    : types;
}

/** The properties and required names of an object schema, `allOf` parts merged. */
export function objectShape(schema: Schema): {
  properties: Record<string, Schema>;
  required: string[];
  closed: boolean;
} {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  let closed = false;
  const visit = (s: Schema) => {
    if (isSchemaObject(s.properties)) Object.assign(properties, s.properties);
    if (Array.isArray(s.required)) required.push(...(s.required as string[]));
    if (s.additionalProperties === false || s.unevaluatedProperties === false) closed = true;
    if (Array.isArray(s.allOf)) for (const part of s.allOf) if (isSchemaObject(part)) visit(part);
  };
  visit(schema);
  return { properties, required: [...new Set(required)], closed };
}

/** A 3.0 schema in 2020-12 terms (a new object; cycles kept as cycles). */
export function toJsonSchema(schema: unknown, seen = new Map<object, unknown>()): unknown {
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s, seen));
  if (!isSchemaObject(schema)) return schema;
  const done = seen.get(schema);
  if (done) return done;
  const out: Schema = {};
  seen.set(schema, out);
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key === 'example' || key === 'xml' || key === 'discriminator')
      continue;
    if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
      if (typeof value === 'boolean') continue; // folded into minimum/maximum below
    }
    out[key] =
      key === 'enum' || key === 'const' || key === 'default' || key === 'required'
        ? value
        : toJsonSchema(value, seen);
  }
  if (schema.exclusiveMinimum === true && typeof schema.minimum === 'number') {
    out.exclusiveMinimum = schema.minimum;
    delete out.minimum;
  }
  if (schema.exclusiveMaximum === true && typeof schema.maximum === 'number') {
    out.exclusiveMaximum = schema.maximum;
    delete out.maximum;
  }
  if (schema.nullable === true) {
    if (out.type !== undefined) {
      const types = Array.isArray(out.type) ? (out.type as string[]) : [out.type as string];
      if (!types.includes('null')) out.type = [...types, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    } else if (out.allOf || out.oneOf || out.anyOf || out.$ref) {
      const inner = { ...out };
      for (const k of Object.keys(out)) delete out[k];
      out.anyOf = [inner, { type: 'null' }];
    }
  }
  return out;
}
