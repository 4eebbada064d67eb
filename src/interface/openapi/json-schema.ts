/**
 * Reading a description's schemas: OpenAPI 3.1 names types as JSON Schema 2020-12 does (a string or
 * an array, `null` among them); a 3.0 schema says `nullable: true` instead. `typesOf` reads either.
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

/**
 * The properties and required names of an object schema, `allOf` parts merged (each part once:
 * resolved schemas share nodes). `resolve`: what a `{$ref}` part stands for, where there are any.
 */
export function objectShape(
  schema: Schema,
  resolve: (s: Schema) => Schema = (s) => s,
): {
  properties: Record<string, Schema>;
  required: string[];
  closed: boolean;
} {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  let closed = false;
  const seen = new Set<Schema>();
  const visit = (part: Schema) => {
    const s = resolve(part);
    if (seen.has(s)) return;
    seen.add(s);
    if (isSchemaObject(s.properties)) Object.assign(properties, s.properties);
    if (Array.isArray(s.required)) required.push(...(s.required as string[]));
    if (s.additionalProperties === false || s.unevaluatedProperties === false) closed = true;
    if (Array.isArray(s.allOf)) for (const part of s.allOf) if (isSchemaObject(part)) visit(part);
  };
  visit(schema);
  return { properties, required: [...new Set(required)], closed };
}
