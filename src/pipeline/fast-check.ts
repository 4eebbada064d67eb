/**
 * A quick yes/no check compiled from a zod schema, for the hot path: zod's safeParse builds a new
 * object for every payload, which for a million rows is a quarter of all planning allocation.
 * The zod schema stays the definition and gives the messages: only when the quick check says no
 * is zod asked (and zod decides). Covers what the resource schemas use (strings with min length
 * and patterns, integers, booleans, arrays, strict objects, optional); a schema using anything
 * else gets no quick check, and zod checks every payload.
 */
import type { z } from 'zod';

export type QuickCheck = (value: unknown) => boolean;

interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
}

interface CheckDef {
  check: string;
  minimum?: number;
  format?: string;
  pattern?: RegExp;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Checks of a string or array, or undefined when one is not understood. */
function compileChecks(def: Def, length: (v: unknown) => number): QuickCheck[] | undefined {
  const out: QuickCheck[] = [];
  for (const c of def.checks ?? []) {
    const d = c._zod.def;
    if (d.check === 'min_length' && d.minimum !== undefined) {
      const min = d.minimum;
      out.push((v) => length(v) >= min);
    } else if (d.check === 'string_format' && d.format === 'regex' && d.pattern) {
      const re = d.pattern;
      out.push((v) => re.test(v as string));
    } else return undefined;
  }
  return out;
}

function all(type: QuickCheck, checks: QuickCheck[]): QuickCheck {
  if (checks.length === 0) return type;
  return (v) => {
    if (!type(v)) return false;
    for (const c of checks) if (!c(v)) return false;
    return true;
  };
}

function compileNumber(def: Def): QuickCheck | undefined {
  const checks = def.checks ?? [];
  if (checks.length === 0) return (v) => typeof v === 'number' && Number.isFinite(v);
  const d = checks[0]?._zod.def;
  if (
    checks.length === 1 &&
    d?.check === 'number_format' &&
    (d.format === 'safeint' || d.format === 'int32')
  ) {
    return (v) => Number.isSafeInteger(v);
  }
  return undefined;
}

function compileObject(def: Def): QuickCheck | undefined {
  if (!def.shape || defOf(def.catchall as z.ZodType)?.type !== 'never') return undefined;
  const fields: [string, QuickCheck][] = [];
  for (const [name, schema] of Object.entries(def.shape)) {
    const check = compileQuickCheck(schema);
    if (!check) return undefined;
    fields.push([name, check]);
  }
  const known = new Set(fields.map(([name]) => name));
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    const obj = v as Record<string, unknown>;
    for (const key in obj) if (!known.has(key)) return false;
    for (const [name, check] of fields) if (!check(obj[name])) return false;
    return true;
  };
}

export function compileQuickCheck(schema: z.ZodType): QuickCheck | undefined {
  const def = defOf(schema);
  switch (def.type) {
    case 'string': {
      const checks = compileChecks(def, (v) => (v as string).length);
      return checks && all((v) => typeof v === 'string', checks);
    }
    case 'number':
      return compileNumber(def);
    case 'boolean':
      return def.checks?.length ? undefined : (v) => typeof v === 'boolean';
    case 'optional': {
      const inner = def.innerType && compileQuickCheck(def.innerType);
      return inner && ((v) => v === undefined || inner(v));
    }
    case 'array': {
      const element = def.element && compileQuickCheck(def.element);
      const checks = compileChecks(def, (v) => (v as unknown[]).length);
      if (!element || !checks) return undefined;
      return all((v) => Array.isArray(v) && v.every(element), checks);
    }
    case 'object':
      return compileObject(def);
    default:
      return undefined;
  }
}
