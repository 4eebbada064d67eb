/**
 * Compiles a field spec (definition/field-schema.ts) into a FieldFn. The steps, in order: source
 * (column, constant, template) -> trim -> transforms -> empty means missing (fallback, default,
 * required) -> split -> lookup -> typed conversion -> slug -> checks. Objects and arrays are built
 * from their children; object keys come out sorted, so JSON.stringify of a payload is canonical.
 * A computed field is made by a registered function from the whole record.
 */
import { inlineTable } from '../lookups/lookup-table.js';
import { compileChecks, type Check } from '../convert/checks.js';
import { slugify } from '../convert/slug.js';
import type { FieldSpec, JsonValue } from '../definition/field-schema.js';
import { findTransform, TransformRejection, type Transform } from '../transforms/index.js';
import { compileComputed } from './compile-custom.js';
import { minorUnitExponent } from '../../base/index.js';
import { toMinorUnits } from '../convert/minor-units.js';
import { compileConverter, type Converter } from './convert-value.js';
import { ABSENT, type CompileContext, type FieldFn, type FieldIssue } from './field-types.js';

/** Keys that only make sense on a scalar source (column or template). */
const SCALAR_ONLY = [
  'trim',
  'transform',
  'type',
  'scale',
  'round',
  'minorUnits',
  'decimalSeparator',
  'groupSeparators',
  'trueValues',
  'falseValues',
  'negate',
  'formats',
  'split',
  'lookup',
  'lookupMissing',
  'slug',
  'check',
] as const;

type TextFn = (fields: Readonly<Record<string, string>>) => string;

/** `{Column Name}` placeholders; `{{` and `}}` are literal braces. */
export function compileTemplate(template: string): TextFn {
  const parts: (string | { column: string })[] = [];
  const re = /\{\{|\}\}|\{([^{}]+)\}/g;
  let last = 0;
  for (let m = re.exec(template); m; m = re.exec(template)) {
    parts.push(template.slice(last, m.index));
    parts.push(m[1] !== undefined ? { column: m[1].trim() } : m[0].charAt(0));
    last = re.lastIndex;
  }
  parts.push(template.slice(last));
  return (fields) => {
    let out = '';
    for (const p of parts) out += typeof p === 'string' ? p : (fields[p.column] ?? '').trim();
    return out;
  };
}

function cloneConstant(value: JsonValue): () => unknown {
  if (value === null || typeof value !== 'object') return () => value;
  const text = JSON.stringify(value);
  return () => JSON.parse(text) as unknown;
}

function compileTransforms(spec: FieldSpec, path: string, ctx: CompileContext): Transform[] {
  const names = spec.transform === undefined ? [] : [spec.transform].flat();
  return names.flatMap((name) => {
    const transform = findTransform(name);
    if (!transform)
      ctx.issues.push({ path: `${path}.transform`, message: `no transform named "${name}"` });
    return transform ? [transform.apply] : [];
  });
}

function compileLookup(
  spec: FieldSpec,
  path: string,
  ctx: CompileContext,
): ((text: string) => { value: string } | { error: string }) | undefined {
  if (spec.lookup === undefined) return undefined;
  const table =
    typeof spec.lookup === 'string'
      ? ctx.lookups[spec.lookup]
      : inlineTable('of the field', spec.lookup);
  if (!table) {
    ctx.issues.push({
      path: `${path}.lookup`,
      message: `no lookup table "${String(spec.lookup)}"`,
    });
    return undefined;
  }
  const map = table.map;
  const keep = spec.lookupMissing === 'keep';
  const miss = table.inline
    ? (text: string) => `expected one of ${[...map.keys()].slice(0, 10).join(', ')}, got "${text}"`
    : (text: string) => `"${text}" is not in ${table.label}`;
  return (text) => {
    const hit = map.get(text);
    if (hit !== undefined) return { value: hit };
    return keep ? { value: text } : { error: miss(text) };
  };
}

type Fields = Readonly<Record<string, string>>;

/**
 * A decimal's amount in minor units of its currency (the code in a column of the record, or
 * fixed); undefined when the field has no minorUnits. Issues name the column at fault: the
 * currency's for a missing or unknown code, the amount's for one with too many decimals.
 */
function compileMinorUnits(
  spec: FieldSpec,
  label: string,
):
  | ((decimal: string, fields: Fields) => { value: number } | { error: string; field: string })
  | undefined {
  const units = spec.minorUnits;
  if (!units) return undefined;
  const round = spec.round;
  if ('code' in units) {
    return (decimal) => {
      const r = toMinorUnits(decimal, units.code, round);
      return 'error' in r ? { error: r.error, field: label } : r;
    };
  }
  const column = units.column;
  return (decimal, fields) => {
    const code = (fields[column] ?? '').trim().toUpperCase();
    if (!code) {
      return {
        error: `no currency code for the amount of ${label} (minorUnits: {column: ${column}})`,
        field: column,
      };
    }
    const r = toMinorUnits(decimal, code, round);
    if ('value' in r) return r;
    return { error: r.error, field: minorUnitExponent(code) === undefined ? column : label };
  };
}

function compileScalar(spec: FieldSpec, path: string, ctx: CompileContext): FieldFn {
  const label = spec.column ?? path;
  let converter: Converter | undefined;
  try {
    converter = compileConverter(spec);
  } catch (error) {
    ctx.issues.push({ path: `${path}.formats`, message: (error as Error).message });
  }
  let checks: Check[] = [];
  try {
    checks = compileChecks(spec.check ?? {});
  } catch (error) {
    ctx.issues.push({ path: `${path}.check`, message: (error as Error).message });
  }
  const column = spec.column;
  const read: TextFn =
    column !== undefined ? (f) => f[column] ?? '' : compileTemplate(spec.template ?? '');
  const trim = spec.trim !== false;
  const transforms = compileTransforms(spec, path, ctx);
  const lookup = compileLookup(spec, path, ctx);
  const slug = spec.slug === true;
  const split = spec.split;
  const fallback = spec.fallback ? compileField(spec.fallback, `${path}.fallback`, ctx) : undefined;
  const defaultValue = spec.default === undefined ? undefined : cloneConstant(spec.default);
  const required = spec.required === true;
  const minor = compileMinorUnits(spec, label);

  const one = (text: string, fields: Fields, issues: FieldIssue[]): unknown => {
    let t = text;
    if (lookup) {
      const r = lookup(t);
      if ('error' in r) return (issues.push({ field: label, message: r.error }), ABSENT);
      t = r.value;
    }
    let value: unknown = t;
    if (converter) {
      const c = converter(t);
      if ('error' in c) return (issues.push({ field: label, message: c.error }), ABSENT);
      value = c.value;
      if (minor) {
        const m = minor(value as string, fields);
        if ('error' in m) return (issues.push({ field: m.field, message: m.error }), ABSENT);
        value = m.value;
      }
    }
    if (slug && typeof value === 'string') value = slugify(value);
    for (const check of checks) {
      const problem = check(value);
      if (problem) return (issues.push({ field: label, message: problem }), ABSENT);
    }
    return value;
  };

  return (fields, issues) => {
    let text: string | undefined = read(fields);
    if (trim) text = text.trim();
    for (const transform of transforms) {
      if (!text) break;
      try {
        text = transform(text, { fields });
      } catch (error) {
        if (!(error instanceof TransformRejection)) throw error;
        issues.push({ field: label, message: error.message });
        return ABSENT;
      }
    }
    if (!text) {
      const alt = fallback ? fallback(fields, issues) : ABSENT;
      if (alt !== ABSENT) return alt;
      if (defaultValue) return defaultValue();
      if (required) issues.push({ field: label, message: 'required, but empty' });
      return ABSENT;
    }
    if (split === undefined) return one(text, fields, issues);
    const out: unknown[] = [];
    for (const part of text.split(split)) {
      const p = trim ? part.trim() : part;
      if (!p) continue;
      const v = one(p, fields, issues);
      if (v !== ABSENT) out.push(v);
    }
    return out;
  };
}

function compileObject(
  children: Record<string, FieldSpec>,
  path: string,
  ctx: CompileContext,
): FieldFn {
  const compiled = Object.keys(children)
    .sort()
    .map(
      (name) => [name, compileField(children[name] as FieldSpec, `${path}.${name}`, ctx)] as const,
    );
  return (fields, issues) => {
    const out: Record<string, unknown> = {};
    let any = false;
    for (const [name, fn] of compiled) {
      const v = fn(fields, issues);
      if (v !== ABSENT) {
        out[name] = v;
        any = true;
      }
    }
    return any ? out : ABSENT;
  };
}

export function compileField(spec: FieldSpec, path: string, ctx: CompileContext): FieldFn {
  if (spec.object || spec.array || spec.compute) {
    for (const key of SCALAR_ONLY) {
      if (spec[key] !== undefined) {
        ctx.issues.push({
          path: `${path}.${key}`,
          message: 'only a column or template takes this',
        });
      }
    }
  }
  if (spec.compute) return compileComputed(spec.compute, `${path}.compute`, ctx);
  if (spec.object) return compileObject(spec.object, `${path}.object`, ctx);
  if (spec.array) {
    const elements = spec.array.map((s, i) => compileField(s, `${path}.array.${i}`, ctx));
    return (fields, issues) => {
      const out: unknown[] = [];
      for (const fn of elements) {
        const v = fn(fields, issues);
        if (v !== ABSENT) out.push(v);
      }
      return out;
    };
  }
  if (spec.value !== undefined) return cloneConstant(spec.value);
  return compileScalar(spec, path, ctx);
}
