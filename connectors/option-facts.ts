/**
 * What a connector's option schema says about each option, read from its JSON Schema (zod's
 * `z.toJSONSchema`): the facts the generated docs show and the validation messages name. The
 * schema itself stays the one declaration; these are only read from it.
 */
import { z } from 'zod';

export type OptionKind = 'string' | 'integer' | 'boolean' | 'enum';

export interface OptionFacts {
  name: string;
  kind: OptionKind;
  description: string;
  /** Allowed values of an enum option. */
  values?: readonly string[];
  default?: string | number | boolean;
  example?: string | number | boolean;
  /** Bounds of an integer option, inclusive. */
  min?: number;
  max?: number;
  required: boolean;
  /** A secret is never logged, reported or put into an error message. */
  secret: boolean;
}

type Scalar = string | number | boolean;

const scalar = (v: unknown): Scalar | undefined =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : undefined;

function kindOf(type: unknown, values: readonly unknown[] | undefined, name: string): OptionKind {
  if (values) return 'enum';
  if (type === 'string' || type === 'integer' || type === 'boolean') return type;
  throw new Error(`option ${name}: a connector option is a string, integer, boolean or enum`);
}

/** A bound zod adds to every integer (the safe range) is no bound worth stating. */
const bound = (n: number | undefined): number | undefined =>
  n === undefined || Math.abs(n) === Number.MAX_SAFE_INTEGER ? undefined : n;

const cache = new WeakMap<z.ZodObject, OptionFacts[]>();

/** The facts of each option, in declaration order. */
export function optionFacts(schema: z.ZodObject): OptionFacts[] {
  const known = cache.get(schema);
  if (known) return known;
  const json = z.toJSONSchema(schema, { io: 'input' });
  const required = new Set(json.required ?? []);
  const facts = Object.entries(json.properties ?? {}).map(([name, p]): OptionFacts => {
    if (typeof p === 'boolean') throw new Error(`option ${name}: no schema`);
    const values = p.enum?.map(String);
    const min = bound(p.minimum);
    const max = bound(p.maximum);
    const fallback = scalar(p.default);
    const example = scalar(p.example);
    return {
      name,
      kind: kindOf(p.type, values, name),
      description: p.description ?? '',
      ...(values ? { values } : {}),
      ...(fallback === undefined ? {} : { default: fallback }),
      ...(example === undefined ? {} : { example }),
      ...(min === undefined ? {} : { min }),
      ...(max === undefined ? {} : { max }),
      required: required.has(name),
      secret: p.secret === true,
    };
  });
  cache.set(schema, facts);
  return facts;
}
