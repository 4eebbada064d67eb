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
 * exclusive forms, integer) are checked on the digits (number-properties.ts) and taken out of
 * the schema ajv compiles; ajv gets a stand-in, the nearest double, which is enough for what is left to it (the
 * type, enum and const). A value with more decimals than multipleOf allows is refused, never
 * rounded. Number properties are found through properties, allOf and items; one reached only
 * through oneOf/anyOf is left wholly to ajv (its multipleOf then on doubles).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { Schema } from './described-operations.js';
import { numberNode, standIn, writeJson } from './number-properties.js';
import { placeOf } from './file-pointers.js';
import { OpenApiError } from './openapi-error.js';
import { schemaTree } from './schema-tree.js';
import { inWords, type Violation } from './rule-in-words.js';

export interface ItemContract {
  /** What the item breaks, or undefined when it fits. */
  check(item: unknown): Violation[] | undefined;
  /** The item's JSON, decimal strings of number properties as JSON numbers; undefined when the
   * schema has no number property (then JSON.stringify's text is the one sent). */
  write: ((item: unknown) => string) | undefined;
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
  if (typeof s.nullable === 'boolean') delete s.nullable; // not a property named so
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

/**
 * One ajv per description: its schemas compile into it, once per operation. `received`: check
 * requests as they arrive (the simulator), where a number property must be a JSON number; by
 * default a decimal string there stands for the number Ferry will write from it.
 */
export function createSchemaCompiler(source: string, dialect: '3.0' | '3.1', received = false) {
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
    // A tree with `$ref`s where the description's schemas repeat or recur, never expanded.
    const copy = schemaTree(schema);
    if (dialect === '3.0') normalize30(copy);
    const numbers = numberNode(copy);
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(copy);
    } catch (error) {
      const why = (error as Error).message;
      throw new OpenApiError(
        source,
        placeOf(schema, pointer),
        `the schema cannot be compiled to check payloads: ${why}`,
      );
    }
    return {
      check(item) {
        const out: Violation[] = [];
        const value = numbers ? standIn(item, numbers, [], out, !received) : item;
        if (!validate(value)) {
          for (const error of validate.errors ?? []) {
            const violation = inWords(error, received);
            if (!out.some((v) => v.pointer === violation.pointer)) out.push(violation);
          }
        }
        return out.length > 0 ? out : undefined;
      },
      write: numbers ? (item) => writeJson(item, numbers) : undefined,
    };
  };
}
