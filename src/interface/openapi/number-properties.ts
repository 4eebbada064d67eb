/**
 * The number properties of an item schema (through properties, allOf and items): their rules that
 * need the exact value (multipleOf, minimum, maximum, their exclusive forms, integer) are taken out
 * of the schema and checked on a value's decimal digits; the item ajv checks gets the nearest double
 * in their place; and the item's JSON carries their decimal strings as JSON numbers. Why:
 * item-contract.ts.
 */
import { compareDecimals, ExactNumber, isMultipleOf, JSON_NUMBER } from '../../base/index.js';
import type { Schema } from './described-operations.js';
import { pointerOf } from './json-pointer.js';
import { isSchemaObject, objectShape, typesOf } from './json-schema.js';
import type { Violation } from './rule-in-words.js';
import { inTree } from './schema-tree.js';

/** The rules of a number property checked on its digits (each a decimal string). */
interface NumberRule {
  integer: boolean;
  multipleOf?: string;
  minimum?: string;
  maximum?: string;
  exclusiveMinimum?: string;
  exclusiveMaximum?: string;
}

/** Where the number properties of an item are. */
export type NumberNode =
  { rule: NumberRule } | { properties: Map<string, NumberNode> } | { items: NumberNode };

const BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;

/** A schema number as its decimal digits, or undefined when it has no plain decimal form (1e-7). */
function digitsOf(n: unknown): string | undefined {
  if (typeof n !== 'number' || !Number.isFinite(n)) return undefined;
  const text = String(n);
  return JSON_NUMBER.test(text) ? text : undefined;
}

/** Takes the digit-checked rules out of a number schema (ajv no longer sees them). */
function takeRule(schema: Schema): NumberRule {
  const rule: NumberRule = { integer: !typesOf(schema).includes('number') };
  const step = digitsOf(schema.multipleOf);
  if (step !== undefined && compareDecimals(step, '0') > 0) {
    rule.multipleOf = step;
    delete schema.multipleOf;
  }
  for (const bound of BOUNDS) {
    const digits = digitsOf(schema[bound]);
    if (digits === undefined) continue;
    rule[bound] = digits;
    delete schema[bound];
  }
  return rule;
}

/**
 * Where the schema's number properties are (their rules taken out of it, in place). `schema` is a
 * tree of schema-tree.ts: a schema named by several `$ref`s is visited once, and the node found
 * for it shared (circular where the schema is).
 */
export function numberNode(schema: Schema): NumberNode | undefined {
  const found = new Map<Schema, NumberNode | undefined>();
  const visit = (part: Schema, depth: number): NumberNode | undefined => {
    const s = inTree(part, schema);
    if (found.has(s)) return found.get(s);
    if (depth > 32) return undefined;
    const types = typesOf(s);
    if ((types.includes('number') || types.includes('integer')) && !types.includes('string')) {
      const rule = { rule: takeRule(s) };
      found.set(s, rule);
      return rule;
    }
    if (isSchemaObject(s.items)) {
      const node = { items: undefined as unknown as NumberNode };
      found.set(s, node);
      const items = visit(s.items, depth + 1);
      if (items) node.items = items;
      else found.set(s, undefined);
      return items && node;
    }
    const node = { properties: new Map<string, NumberNode>() };
    found.set(s, node);
    const shape = objectShape(s, (p) => inTree(p, schema));
    for (const [name, property] of Object.entries(shape.properties)) {
      const child = isSchemaObject(property) ? visit(property, depth + 1) : undefined;
      if (child) node.properties.set(name, child);
    }
    if (node.properties.size === 0) found.set(s, undefined);
    return node.properties.size > 0 ? node : undefined;
  };
  return visit(schema, 0);
}

/** The first rule of `rule` the digits break, in words. */
function brokenRule(digits: string, rule: NumberRule): string | undefined {
  // Any fraction, zeros too: "1273.00" is a decimal amount, and written into an integer property
  // a platform reads it as 1273 of whatever unit the property counts (øre: 100 times too low).
  if (rule.integer && digits.includes('.')) {
    return `must be an integer, got ${digits}: a decimal is never written into an integer property (an amount in minor units: set minorUnits on the field)`;
  }
  const step = rule.multipleOf;
  if (step !== undefined && !isMultipleOf(digits, step)) {
    const decimals = /^0\.0*1$/.test(step) ? ` (at most ${step.length - 2} decimals)` : '';
    return `must be a multiple of ${step}${decimals}, got ${digits}; it is not rounded`;
  }
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = rule;
  if (minimum !== undefined && compareDecimals(digits, minimum) < 0)
    return `must be >= ${minimum}, got ${digits}`;
  if (maximum !== undefined && compareDecimals(digits, maximum) > 0)
    return `must be <= ${maximum}, got ${digits}`;
  if (exclusiveMinimum !== undefined && compareDecimals(digits, exclusiveMinimum) <= 0)
    return `must be > ${exclusiveMinimum}, got ${digits}`;
  if (exclusiveMaximum !== undefined && compareDecimals(digits, exclusiveMaximum) >= 0)
    return `must be < ${exclusiveMaximum}, got ${digits}`;
  return undefined;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The item ajv checks: number properties' digits checked here and replaced by doubles. `path` is
 * where `value` stands (a pointer is made of it only for a violation: this runs for every payload).
 * `text`: a decimal string stands for its digits (the mapping's amounts); false where a request is
 * checked as received, so a string there is left to ajv, which refuses it as not a number.
 */
export function standIn(
  value: unknown,
  node: NumberNode,
  path: (string | number)[],
  out: Violation[],
  text = true,
): unknown {
  if ('rule' in node) {
    const isText = text && typeof value === 'string' && JSON_NUMBER.test(value);
    // An edited payload's number of more digits than a double holds (base/exact-json).
    const exact =
      value instanceof ExactNumber && JSON_NUMBER.test(value.digits) ? value.digits : undefined;
    const digits = isText ? value : (exact ?? digitsOf(value));
    if (digits === undefined) return value; // not a number: ajv says so
    const message = brokenRule(digits, node.rule);
    if (message) out.push({ pointer: pointerOf(path), message });
    return Number(digits);
  }
  if ('items' in node) {
    if (!Array.isArray(value)) return value;
    const copy: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      copy.push(standIn(value[i], node.items, path, out, text));
      path.pop();
    }
    return copy;
  }
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  for (const [name, child] of node.properties) {
    if (copy[name] === undefined) continue;
    path.push(name);
    copy[name] = standIn(copy[name], child, path, out, text);
    path.pop();
  }
  return copy;
}

/** JSON.stringify's text, but decimal strings of number properties written as JSON numbers. */
export function writeJson(value: unknown, node: NumberNode | undefined): string {
  if (node === undefined || value === null || typeof value !== 'object') {
    if (node && 'rule' in node && typeof value === 'string' && JSON_NUMBER.test(value)) {
      return value;
    }
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) {
    const items = 'items' in node ? node.items : undefined;
    return `[${value.map((v) => writeJson(v, items)).join(',')}]`;
  }
  const properties = 'properties' in node ? node.properties : undefined;
  const object = value as Record<string, unknown>;
  let text = '';
  for (const name in object) {
    const v = object[name];
    if (v === undefined || typeof v === 'function') continue;
    text += `${text === '' ? '' : ','}${JSON.stringify(name)}:${writeJson(v, properties?.get(name))}`;
  }
  return `{${text}}`;
}
