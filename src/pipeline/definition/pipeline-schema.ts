/**
 * The pipeline file (config/pipelines/NAME.yaml), validated with strict objects: an unknown or
 * mistyped key fails at start with its dotted path. docs/PIPELINES.md describes every key.
 */
import { guardsSchema } from '../guards/guard-schema.js';
import { z } from 'zod';
import { PLATFORM_NAME } from '../../config/index.js';
import { s3SourceSchema, sftpSourceSchema } from './remote-source-schema.js';
import { scheduleSchema } from './schedule-schema.js';
import { windowSchema } from './window-schema.js';

/** What a webhook can be told of (docs/PIPELINES.md, Notifications). */
export const NOTIFY_EVENTS = [
  'failed',
  'guard_stopped',
  'dead_letters',
  'succeeded',
  'blocked',
  'contract_changed',
  'late',
] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];
import { fieldSpecSchema } from './field-schema.js';

export const CHANGE_KINDS = ['upsert', 'patch', 'delete'] as const;

const sourceSchema = z
  .strictObject({
    /** Connector name; by the file's extension when absent. */
    connector: z.string().min(1).optional(),
    options: z.record(z.string(), z.unknown()).default({}),
    file: z.string().min(1).optional(),
    folder: z.string().min(1).optional(),
    pattern: z.string().min(1).optional(),
    url: z.url().optional(),
    /** Files on an SFTP server (remote-source-schema.ts). */
    sftp: sftpSourceSchema.optional(),
    /** Objects in an S3 bucket (remote-source-schema.ts). */
    s3: s3SourceSchema.optional(),
  })
  .superRefine((s, ctx) => {
    const kinds = ['file', 'folder', 'url', 'sftp', 's3'] as const;
    const given = kinds.filter((k) => s[k] !== undefined);
    if (given.length > 1) {
      ctx.addIssue({
        code: 'custom',
        message: `expected one of ${kinds.join(', ')}; got ${given}`,
      });
    }
    if (s.pattern !== undefined && s.folder === undefined) {
      ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'pattern goes with folder' });
    }
  });

const whenSchema = z
  .strictObject({
    column: z.string().min(1).optional(),
    notEmpty: z.boolean().optional(),
    equals: z.string().optional(),
    in: z.array(z.string()).min(1).optional(),
    /** A registered computed field: the record gives the entity when it gives a value. */
    compute: z.string().min(1).optional(),
  })
  .refine(
    (w) =>
      w.compute !== undefined
        ? w.column === undefined && [w.notEmpty, w.equals, w.in].every((x) => x === undefined)
        : w.column !== undefined &&
          [w.notEmpty, w.equals, w.in].filter((x) => x !== undefined).length === 1,
    { message: 'expected {column, and one of notEmpty, equals, in}, or {compute}' },
  );

const entitySchema = z.strictObject({
  /** Names the entity in errors and in `sendWithNew`; defaults to its resource. */
  name: z.string().min(1).optional(),
  operations: z
    .strictObject({
      upsert: z.string().min(1).optional(),
      patch: z.string().min(1).optional(),
      delete: z.string().min(1).optional(),
    })
    .refine((o) => o.upsert ?? o.patch ?? o.delete, {
      message: 'expected at least one of upsert, patch, delete',
    }),
  key: fieldSpecSchema,
  /** A key holding an invisible character (zero-width space, bidi control...): `reject` the
   * record naming the code point, or `strip` such characters from the key. */
  invisibleInKey: z.enum(['reject', 'strip']).default('reject'),
  when: whenSchema.optional(),
  /** changes mode: the change kinds that give this entity (default: those it has operations for). */
  on: z.array(z.enum(CHANGE_KINDS)).min(1).optional(),
  /** A later record with a key already seen: `error` rejects it, `first` ignores it (derived
   * entities such as categories), `group` merges it into the first (a product and its variants). */
  duplicates: z.enum(['error', 'first', 'group']).default('error'),
  /** Send this entity, even unchanged, whenever the named entity of the same record is created. */
  sendWithNew: z.string().min(1).optional(),
  /** Check payloads against this resource schema (default: the operation's resource; `none`: no check). */
  schema: z.string().min(1).optional(),
  fields: z.record(z.string(), fieldSpecSchema).default({}),
});

/**
 * A lookup table read from a second file (docs/PIPELINES.md, Lookups from files): the records'
 * `key` column matched against a field's value gives their `value` column, among the records whose
 * columns equal `where`. An object with file, key and value is such a lookup, never a table.
 */
export const fileLookupSchema = z.strictObject({
  file: z.string().min(1),
  connector: z.string().min(1).optional(),
  options: z.record(z.string(), z.unknown()).default({}),
  key: z.string().min(1),
  value: z.string().min(1),
  where: z.record(z.string(), z.string()).optional(),
});
export type FileLookupSpec = z.infer<typeof fileLookupSchema>;

export const pipelineSchema = z
  .strictObject({
    description: z.string().optional(),
    /** An import (the default); `direction: export` files have their own schema (export-schema.ts). */
    direction: z.literal('import').optional(),
    source: sourceSchema,
    /** Run by the workers on this cron (src/schedules). */
    schedule: scheduleSchema.optional(),
    /** When its runs should be done: a run forecast to end later notifies `late` (window-schema.ts). */
    window: windowSchema.optional(),
    mode: z.enum(['snapshot', 'changes']),
    changeType: z
      .strictObject({
        column: z.string().min(1),
        values: z.record(z.string(), z.enum(CHANGE_KINDS)),
      })
      .optional(),
    deletes: z
      .strictObject({
        enabled: z.boolean().default(false),
        /** Largest share of the entities in state one run may delete. */
        maxShare: z.number().min(0).max(1).default(0.1),
        /** A run with deletes and fewer rows than this stops. */
        minRows: z.number().int().nonnegative().default(0),
      })
      .prefault({}),
    /** Value guards checked on the plan before anything is sent (guards/guard-schema.ts). */
    guards: guardsSchema,
    /** Inline tables (value -> value), or tables read from a file (lookups/lookup-file.ts). */
    lookups: z
      .record(z.string(), z.union([fileLookupSchema, z.record(z.string(), z.string())]))
      .default({}),
    /** Webhooks told when a run ends a certain way (queue/notify). */
    notify: z
      .array(
        z.strictObject({
          url: z.url({ protocol: /^https?$/ }),
          on: z.array(z.enum(NOTIFY_EVENTS)).min(1),
        }),
      )
      .default([]),
    /** Delivery order: each entry is a stage (an operation id or a list of them). */
    stages: z.array(z.union([z.string(), z.array(z.string()).min(1)])).optional(),
    entities: z.array(entitySchema).min(1).max(31),
    /** The platform it delivers to (docs/PLATFORMS.md; default `default`)... */
    platform: z.string().regex(PLATFORM_NAME, 'a platform name from the config').optional(),
    /** ...or the platforms it fans out to: one plan and one state per platform. */
    platforms: z
      .array(z.string().regex(PLATFORM_NAME, 'a platform name from the config'))
      .min(1)
      .optional(),
    /**
     * What differs on a platform: `fields: {"<entity>.<field>": <field spec>}` replaces that
     * field's spec (a price list or a currency per shop).
     */
    overrides: z
      .record(
        z.string(),
        z.strictObject({ fields: z.record(z.string(), fieldSpecSchema).default({}) }),
      )
      .default({}),
  })
  .superRefine((p, ctx) => {
    if (p.platform !== undefined && p.platforms !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['platforms'],
        message: 'platform names one platform, platforms several: set one of them',
      });
    }
    const on = p.platforms ?? [p.platform ?? 'default'];
    if (new Set(on).size < on.length) {
      ctx.addIssue({ code: 'custom', path: ['platforms'], message: 'a platform named twice' });
    }
    if (on.length > 1 && p.schedule?.pickup) {
      ctx.addIssue({
        code: 'custom',
        path: ['schedule', 'pickup'],
        message:
          'a picked-up file is taken once: a pipeline that fans out to several platforms cannot pick up (give each platform a pipeline of its own, or schedule it with a file or URL source)',
      });
    }
    for (const name of Object.keys(p.overrides)) {
      if (!on.includes(name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['overrides', name],
          message: `not a platform this pipeline delivers to (${on.join(', ')})`,
        });
      }
    }
    if (p.mode === 'changes' && !p.changeType) {
      ctx.addIssue({
        code: 'custom',
        path: ['changeType'],
        message: 'changes mode needs changeType: {column, values: {U: upsert, D: delete}}',
      });
    }
    if (p.mode === 'snapshot' && p.changeType) {
      ctx.addIssue({
        code: 'custom',
        path: ['changeType'],
        message: 'changeType belongs to changes mode',
      });
    }
    const pickupFolder =
      p.source.folder !== undefined || p.source.sftp?.pattern !== undefined || p.source.s3;
    if (p.schedule?.pickup && !pickupFolder) {
      ctx.addIssue({
        code: 'custom',
        path: ['schedule', 'pickup'],
        message:
          'pickup takes files out of a folder: it needs source.folder (and pattern), source.sftp with path and pattern, or source.s3',
      });
    }
    if (p.mode === 'changes' && p.deletes.enabled) {
      ctx.addIssue({
        code: 'custom',
        path: ['deletes', 'enabled'],
        message: 'a change feed says its deletes; deletes by absence are for snapshot mode',
      });
    }
  });

export type PipelineFile = z.infer<typeof pipelineSchema>;
export type EntityFile = PipelineFile['entities'][number];
export type WhenSpec = NonNullable<EntityFile['when']>;
export type SourceFile = PipelineFile['source'];
