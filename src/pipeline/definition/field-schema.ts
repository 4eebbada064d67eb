/**
 * How one payload field is made from a record (docs/PIPELINES.md, "Fields"). A field spec is a
 * column name (shorthand), or an object with exactly one source (column, value, template, object,
 * array, compute) and the conversions, defaults and checks to apply.
 */
import { z } from 'zod';
import { isCurrencyCode } from '../../base/index.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };

export const FIELD_TYPES = ['string', 'integer', 'decimal', 'boolean', 'date'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const MERGE_MODES = ['first', 'last', 'append', 'unique'] as const;
export type MergeMode = (typeof MERGE_MODES)[number];
/** A merge mode, or the name of a registered merge (transforms/registry.ts). */
export type MergeName = MergeMode | (string & {});

export interface FieldChecksSpec {
  email?: boolean;
  enum?: (string | number | boolean)[];
  pattern?: string;
  min?: number | string;
  max?: number | string;
  minLength?: number;
  maxLength?: number;
}

/** The currency of a minor-units amount: the column holding its ISO 4217 code, or the code. */
export type MinorUnitsSpec = { column: string } | { code: string };

export interface FieldSpec {
  column?: string;
  value?: JsonValue;
  template?: string;
  object?: Record<string, FieldSpec>;
  array?: FieldSpec[];
  /** A registered computed field (transforms/registry.ts): made from the whole record. */
  compute?: string;
  trim?: boolean;
  transform?: string | string[];
  type?: FieldType;
  scale?: number;
  round?: 'half-up' | 'half-even';
  /** A decimal written as an integer count of its currency's minor units (convert/minor-units.ts). */
  minorUnits?: MinorUnitsSpec;
  decimalSeparator?: ',' | '.';
  groupSeparators?: string[];
  trueValues?: string[];
  falseValues?: string[];
  negate?: boolean;
  formats?: string[];
  required?: boolean;
  default?: JsonValue;
  fallback?: FieldSpec;
  split?: string;
  lookup?: string | Record<string, string>;
  lookupMissing?: 'error' | 'keep';
  slug?: boolean;
  check?: FieldChecksSpec;
  merge?: MergeName;
}

const SOURCES = ['column', 'value', 'template', 'object', 'array', 'compute'] as const;

const checksSchema = z.strictObject({
  email: z.boolean().optional(),
  enum: z
    .array(z.union([z.string(), z.number(), z.boolean()]))
    .min(1)
    .optional(),
  pattern: z.string().optional(),
  min: z.union([z.number(), z.string()]).optional(),
  max: z.union([z.number(), z.string()]).optional(),
  minLength: z.number().int().nonnegative().optional(),
  maxLength: z.number().int().nonnegative().optional(),
});

const fieldObjectSchema: z.ZodType<FieldSpec> = z
  .strictObject({
    column: z.string().min(1).optional(),
    value: z.json().optional(),
    template: z.string().min(1).optional(),
    get object() {
      return z.record(z.string(), fieldSpecSchema).optional();
    },
    get array() {
      return z.array(fieldSpecSchema).optional();
    },
    compute: z.string().min(1).optional(),
    trim: z.boolean().optional(),
    transform: z.union([z.string(), z.array(z.string())]).optional(),
    type: z.enum(FIELD_TYPES).optional(),
    scale: z.number().int().min(0).max(18).optional(),
    round: z.enum(['half-up', 'half-even']).optional(),
    minorUnits: z
      .union([
        z.strictObject({ column: z.string().min(1) }),
        z.strictObject({
          code: z.string().refine(isCurrencyCode, 'expected an ISO 4217 currency code, e.g. NOK'),
        }),
      ])
      .optional(),
    decimalSeparator: z.enum([',', '.']).optional(),
    groupSeparators: z.array(z.string().length(1)).optional(),
    trueValues: z.array(z.string()).min(1).optional(),
    falseValues: z.array(z.string()).min(1).optional(),
    negate: z.boolean().optional(),
    formats: z.array(z.string().min(1)).min(1).optional(),
    required: z.boolean().optional(),
    default: z.json().optional(),
    get fallback() {
      return fieldSpecSchema.optional();
    },
    split: z.string().min(1).optional(),
    lookup: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
    lookupMissing: z.enum(['error', 'keep']).optional(),
    slug: z.boolean().optional(),
    check: checksSchema.optional(),
    // A mode, or a registered merge: checked against the registry when the pipeline compiles.
    merge: z.string().min(1).optional(),
  })
  .superRefine((spec, ctx) => {
    const given = SOURCES.filter((s) => spec[s] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          given.length === 0
            ? `expected one source: ${SOURCES.join(', ')}`
            : `expected one source, got ${given.join(' and ')}`,
      });
    }
    if (spec.minorUnits && spec.type !== 'decimal') {
      ctx.addIssue({
        code: 'custom',
        path: ['minorUnits'],
        message: 'minorUnits goes with type: decimal (the amount as the export writes it)',
      });
    }
    if (spec.minorUnits && spec.scale !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['scale'],
        message: "minorUnits takes the currency's decimals (ISO 4217): leave scale out",
      });
    }
    if (spec.round !== undefined && spec.scale === undefined && !spec.minorUnits) {
      ctx.addIssue({
        code: 'custom',
        path: ['round'],
        message:
          "round rounds to scale (digits after the point) or to the currency's minor units (minorUnits): set one of them; alone it rounds nothing",
      });
    }
    if (spec.type === 'date' && !spec.formats) {
      ctx.addIssue({
        code: 'custom',
        path: ['formats'],
        message: 'a date field needs its formats, e.g. ["dd.mm.yyyy"]',
      });
    }
  });

/** A field spec; a bare string is shorthand for `{column: <string>}`. */
export const fieldSpecSchema: z.ZodType<FieldSpec> = z.lazy(() =>
  z.preprocess(
    (value) => (typeof value === 'string' ? { column: value } : value),
    fieldObjectSchema,
  ),
);
