/**
 * An export pipeline file (`direction: export`, docs/EXPORTS.md): a read operation of the
 * platform, the fields of each row (the mapping language of imports, read from the item's paths),
 * and the target files. Strict objects, like the import schema: an unknown or mistyped key fails
 * at load with its dotted path.
 */
import { z } from 'zod';
import { PLATFORM_NAME } from '../../config/index.js';
import { scheduleSchema } from './schedule-schema.js';

/** The listings an export can read: paged collections of the interface. */
export const EXPORT_OPERATIONS = [
  'orders.get',
  'reports.zReport.get',
  'statistics.revenue.get',
  'stores.get',
  'products.get',
  'microshops.get',
] as const;

export const EXPORT_FIELD_TYPES = [
  'string',
  'integer',
  'decimal',
  'boolean',
  'date',
  'datetime',
] as const;
export type ExportFieldType = (typeof EXPORT_FIELD_TYPES)[number];

export const EXPORT_FORMATS = ['csv', 'json', 'ndjson', 'xlsx'] as const;

/** Encodings an export file can be written in. */
export const EXPORT_ENCODINGS = ['utf-8', 'windows-1252'] as const;
export type ExportEncoding = (typeof EXPORT_ENCODINGS)[number];

const SOURCES = ['column', 'value', 'template', 'compute'] as const;

/**
 * One field of a row: where its value comes from in the item (`column` is a dotted path such as
 * `customer.email` or, with `explode: lines`, `lines.unitPrice`), the import's steps that apply
 * (transforms, lookup, default, required, checks), and its type, which decides how the target
 * writes it (a decimal with the target's separator, a date in its format).
 */
const exportFieldObjectSchema = z
  .strictObject({
    column: z.string().min(1).optional(),
    value: z.union([z.string(), z.number(), z.boolean()]).optional(),
    template: z.string().min(1).optional(),
    compute: z.string().min(1).optional(),
    trim: z.boolean().optional(),
    transform: z.union([z.string(), z.array(z.string())]).optional(),
    type: z.enum(EXPORT_FIELD_TYPES).default('string'),
    /** decimal: digits after the separator (more are an error unless `round` says how). */
    scale: z.number().int().min(0).max(18).optional(),
    round: z.enum(['half-up', 'half-even']).optional(),
    /** date and datetime: this field's format instead of the target's. */
    format: z.string().min(1).optional(),
    required: z.boolean().optional(),
    default: z.union([z.string(), z.number(), z.boolean()]).optional(),
    lookup: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
    lookupMissing: z.enum(['error', 'keep']).optional(),
    check: z
      .strictObject({
        enum: z.array(z.string()).min(1).optional(),
        pattern: z.string().optional(),
        minLength: z.number().int().nonnegative().optional(),
        maxLength: z.number().int().nonnegative().optional(),
      })
      .optional(),
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
    if (spec.format !== undefined && spec.type !== 'date' && spec.type !== 'datetime') {
      ctx.addIssue({ code: 'custom', path: ['format'], message: 'format goes with a date type' });
    }
    if ((spec.scale ?? spec.round) !== undefined && spec.type !== 'decimal') {
      ctx.addIssue({ code: 'custom', path: ['scale'], message: 'scale and round go with decimal' });
    }
  });

/** A field of an export row; a bare string is shorthand for `{column: <path>}`. */
export const exportFieldSchema = z.preprocess(
  (value) => (typeof value === 'string' ? { column: value } : value),
  exportFieldObjectSchema,
);
export type ExportFieldFile = z.infer<typeof exportFieldObjectSchema>;

const csvSchema = z.strictObject({
  delimiter: z.enum([',', ';', 'tab', '|']).default(','),
  encoding: z.enum(EXPORT_ENCODINGS).default('utf-8'),
  /** A UTF-8 byte-order mark first (some spreadsheet programs want one). */
  bom: z.boolean().default(false),
  header: z.boolean().default(true),
  lineEnding: z.enum(['crlf', 'lf']).default('crlf'),
  /** A character the encoding cannot hold: stop the export naming it, or write `?`. */
  unmappable: z.enum(['error', 'replace']).default('error'),
});

export const exportTargetSchema = z
  .strictObject({
    /** Where the files go; relative paths from the working directory. `--out` overrides it. */
    folder: z.string().min(1),
    /**
     * The file name: {date}, {time}, {seq}, {from}, {to}, {pipeline}, {runId} (docs/EXPORTS.md).
     */
    file: z.string().min(1),
    format: z.enum(EXPORT_FORMATS),
    csv: csvSchema.prefault({}),
    decimalSeparator: z.enum(['.', ',']).default('.'),
    dateFormat: z.string().min(1).default('yyyy-mm-dd'),
    dateTimeFormat: z.string().min(1).default('yyyy-mm-ddThh:mm:ss'),
    /** The zone dates with a time are written in, and the run's date in the file name. */
    timeZone: z.string().min(1).default('UTC'),
    /** What a boolean field writes. */
    booleans: z.tuple([z.string(), z.string()]).default(['true', 'false']),
    /** Beside each file, <file>.sha256 (`sha256sum` format), written after the file. */
    manifest: z.boolean().default(false),
    /** A run with nothing new writes a file with the header only (default: no file). */
    emptyFile: z.boolean().default(false),
  })
  .superRefine((t, ctx) => {
    if (/[/\\]/.test(t.file)) {
      ctx.addIssue({
        code: 'custom',
        path: ['file'],
        message: 'a file name, without folders (the folder is target.folder)',
      });
    }
  });

export const exportReadSchema = z.strictObject({
  operation: z.enum(EXPORT_OPERATIONS),
  pageSize: z.number().int().min(1).max(10_000).default(500),
  /** Fixed query parameters of every page (filters the platform offers). */
  query: z.record(z.string(), z.string()).default({}),
  cursor: z.strictObject({
    /** The item's path the listing is ordered by (ascending); the cursor keeps the last exported. */
    field: z.string().min(1),
    /** A query parameter that asks the platform for the items after a value of the field (sinceId). */
    param: z.string().min(1).optional(),
  }),
  /** At most this many items per run (the rest in the next run). */
  maxItems: z.number().int().min(1).optional(),
});

export const exportPipelineSchema = z.strictObject({
  description: z.string().optional(),
  direction: z.literal('export'),
  /** The platform it reads from (docs/PLATFORMS.md; default `default`). */
  platform: z.string().regex(PLATFORM_NAME, 'a platform name from the config').optional(),
  schedule: scheduleSchema.optional(),
  read: exportReadSchema,
  /** One row per element of this array of the item (an order's `lines`), instead of per item. */
  explode: z.string().min(1).optional(),
  lookups: z.record(z.string(), z.record(z.string(), z.string())).default({}),
  fields: z
    .record(z.string().min(1), exportFieldSchema)
    .refine((f) => Object.keys(f).length > 0, { message: 'expected at least one field' }),
  target: exportTargetSchema,
});

export type ExportPipelineFile = z.infer<typeof exportPipelineSchema>;
export type ExportTargetFile = ExportPipelineFile['target'];
