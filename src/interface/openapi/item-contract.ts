/**
 * One operation's item schema from the platform's description, compiled once to check every payload
 * at plan time (ajv's JSON Schema 2020-12 build with ajv-formats), and the writer of its JSON.
 *
 * Amounts: the mapping keeps a decimal as its string of digits ("12345678901234567.89"). Where the
 * schema says `number` or `integer`, the JSON sent carries those digits as a JSON number, written
 * from the string, never from a float. ajv, though, checks JS values: a double cannot hold every
 * such number (that one would become ...568), and `multipleOf: 0.01` is not decidable on doubles
 * (ajv finds 0.07 / 0.01 = 7.000000000000001 not whole, and 12345678901234567.891 a multiple). So
 * for number properties the rules that need the exact value (multipleOf, minimum, maximum, their
 * exclusive forms, integer) are checked here on the digits and taken out of the schema ajv
 * compiles; ajv gets a stand-in, the nearest double, which is enough for what is left to it (the
 * type, enum and const). A value with more decimals than multipleOf allows is refused, never
 * rounded. Number properties are found through properties, allOf and items; one reached only
 * through oneOf/anyOf is left wholly to ajv (its multipleOf then on doubles).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { compareDecimals, isMultipleOf, JSON_NUMBER } from '../../base/index.js';
import type { Schema } from './described-operations.js';
import { escapeToken } from './json-pointer.js';
import { isSchemaObject, objectShape, typesOf } from './json-schema.js';
import { OpenApiError } from './openapi-error.js';

/** A rule of the schema a payload breaks: where in the payload, and the rule in words. */
export interface Violation {
  pointer: string;
  message: string;
}

export interface ItemContract {
  /** What the item breaks, or undefined when it fits. */
  check(item: unknown): Violation[] | undefined;
  /** The item's JSON, decimal strings of number properties as JSON numbers; undefined when the
   * schema has no number property (then JSON.stringify's text is the one sent). */
  write: ((item: unknown) => string) | undefined;
}

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
type NumberNode =
  { rule: NumberRule } | { properties: Map<string, NumberNode> } | { items: NumberNode };

const BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;

/** A schema number as its decimal digits, or undefined when it has no plain decimal form (1e-7). */
function digitsOf(n: unknown): string | undefined {
  if (typeof n !== 'number' || !Number.isFinite(n)) return undefined;
  const text = String(n);
  return JSON_NUMBER.test(text) ? text : undefined;
}

/** 3.0's `nullable` and boolean exclusive bounds, as 2020-12 says them (in place, on a copy). */
function normalize30(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  for (const child of Object.values(node)) normalize30(child);
  if (Array.isArray(node)) return;
  const s = node as Schema;
  if (s.nullable === true) {
    if (typeof s.type === 'string') s.type = [s.type, 'null'];
    if (Array.isArray(s.enum) && !s.enum.includes(null)) s.enum = [...s.enum, null];
  }
  delete s.nullable;
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (s[flag] === true && typeof s[bound] === 'number') {
      s[flag] = s[bound];
      delete s[bound];
    } else if (typeof s[flag] === 'boolean') delete s[flag];
  }
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

function numberNode(schema: Schema, depth = 0): NumberNode | undefined {
  if (depth > 32) return undefined;
  const types = typesOf(schema);
  if ((types.includes('number') || types.includes('integer')) && !types.includes('string')) {
    return { rule: takeRule(schema) };
  }
  if (isSchemaObject(schema.items)) {
    const items = numberNode(schema.items, depth + 1);
    return items && { items };
  }
  const properties = new Map<string, NumberNode>();
  for (const [name, property] of Object.entries(objectShape(schema).properties)) {
    const node = isSchemaObject(property) ? numberNode(property, depth + 1) : undefined;
    if (node) properties.set(name, node);
  }
  return properties.size > 0 ? { properties } : undefined;
}

/** The first rule of `rule` the digits break, in words. */
function brokenRule(digits: string, rule: NumberRule): string | undefined {
  if (rule.integer && /\.\d*[1-9]/.test(digits)) return `must be an integer, got ${digits}`;
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

/** The item ajv checks: number properties' digits checked here and replaced by doubles. */
function standIn(value: unknown, node: NumberNode, pointer: string, out: Violation[]): unknown {
  if ('rule' in node) {
    const digits = typeof value === 'string' && JSON_NUMBER.test(value) ? value : digitsOf(value);
    if (digits === undefined) return value; // not a number: ajv says so
    const message = brokenRule(digits, node.rule);
    if (message) out.push({ pointer, message });
    return Number(digits);
  }
  if ('items' in node) {
    if (!Array.isArray(value)) return value;
    return value.map((v, i) => standIn(v, node.items, `${pointer}/${i}`, out));
  }
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  for (const [name, child] of node.properties) {
    if (copy[name] !== undefined) {
      copy[name] = standIn(copy[name], child, `${pointer}/${escapeToken(name)}`, out);
    }
  }
  return copy;
}

/** JSON.stringify's text, but decimal strings of number properties written as JSON numbers. */
function writeJson(value: unknown, node: NumberNode | undefined): string {
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
  const parts: string[] = [];
  for (const [name, v] of Object.entries(value)) {
    if (v === undefined || typeof v === 'function') continue;
    parts.push(`${JSON.stringify(name)}:${writeJson(v, properties?.get(name))}`);
  }
  return `{${parts.join(',')}}`;
}

const MAX_SHOWN = 60;

function shown(data: unknown): string {
  const text = data === undefined ? 'nothing' : (JSON.stringify(data) ?? String(data));
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}

const listed = (values: unknown): string =>
  Array.isArray(values)
    ? values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')
    : String(values);

/** An ajv error as the pointer it concerns and the rule in words. */
function inWords(e: ErrorObject): Violation {
  const p = e.params as Record<string, unknown>;
  const got = `got ${shown(e.data)}`;
  const at = (name: unknown) => `${e.instancePath}/${escapeToken(String(name))}`;
  switch (e.keyword) {
    case 'required':
      return { pointer: at(p.missingProperty), message: 'required, but the mapping gave no value' };
    case 'additionalProperties':
      return { pointer: at(p.additionalProperty), message: 'is not a property the schema allows' };
    case 'unevaluatedProperties':
      return { pointer: at(p.unevaluatedProperty), message: 'is not a property the schema allows' };
    case 'pattern':
      return { pointer: e.instancePath, message: `must match ${String(p.pattern)}, ${got}` };
    case 'maxLength':
    case 'minLength': {
      const most = e.keyword === 'maxLength' ? 'at most' : 'at least';
      const length = typeof e.data === 'string' ? ` (${[...e.data].length})` : '';
      const message = `must be ${most} ${String(p.limit)} characters, ${got}${length}`;
      return { pointer: e.instancePath, message };
    }
    case 'enum':
      return {
        pointer: e.instancePath,
        message: `must be one of ${listed(p.allowedValues)}, ${got}`,
      };
    case 'type':
      return { pointer: e.instancePath, message: `must be ${listed(p.type)}, ${got}` };
    case 'format':
      return { pointer: e.instancePath, message: `must be a valid ${String(p.format)}, ${got}` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return {
        pointer: e.instancePath,
        message: `must be ${String(p.comparison)} ${String(p.limit)}, ${got}`,
      };
    case 'minItems':
    case 'maxItems': {
      const most = e.keyword === 'maxItems' ? 'at most' : 'at least';
      const count = Array.isArray(e.data) ? e.data.length : 0;
      return {
        pointer: e.instancePath,
        message: `must have ${most} ${String(p.limit)} items, got ${count}`,
      };
    }
    default:
      return { pointer: e.instancePath, message: `${e.message ?? e.keyword}, ${got}` };
  }
}

/** One ajv per description: its schemas compile into it, once per operation. */
export function createSchemaCompiler(source: string, dialect: '3.0' | '3.1') {
  const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, logger: false });
  ajvFormats.default(ajv); // CommonJS: under NodeNext its function is the module's `default`
  // OpenAPI's own formats: sizes of numbers, and formats that only document.
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  });
  for (const name of ['int64', 'float', 'double'])
    ajv.addFormat(name, { type: 'number', validate: () => true });
  for (const name of ['byte', 'binary', 'password']) ajv.addFormat(name, true);

  /** `schema`: one item's schema; `pointer`: where it stands in the description (for errors). */
  return function compileItemContract(schema: Schema, pointer: string): ItemContract {
    const copy = structuredClone(schema);
    if (dialect === '3.0') normalize30(copy);
    const numbers = numberNode(copy);
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(copy);
    } catch (error) {
      const why = (error as Error).message;
      throw new OpenApiError(
        source,
        pointer,
        `the schema cannot be compiled to check payloads: ${why}`,
      );
    }
    return {
      check(item) {
        const out: Violation[] = [];
        const value = numbers ? standIn(item, numbers, '', out) : item;
        if (!validate(value)) {
          for (const error of validate.errors ?? []) {
            const violation = inWords(error);
            if (!out.some((v) => v.pointer === violation.pointer)) out.push(violation);
          }
        }
        return out.length > 0 ? out : undefined;
      },
      write: numbers ? (item) => writeJson(item, numbers) : undefined,
    };
  };
}
