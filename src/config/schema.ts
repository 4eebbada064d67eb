/**
 * The configuration schema: config/default.yaml, then the environment (docs/CONFIGURATION.md,
 * Environment). Every key is documented in docs/CONFIGURATION.md. Objects are strict: an unknown
 * key is an error that names its path, so a typo never silently falls back to a default.
 */
import { z } from 'zod';
import { LISTINGS } from './listings.js';

const positiveInt = z.number().int().positive();

/** How a DELETE carries its keys (docs/INTERFACE.md, Bindings). */
export const DELETE_STYLES = ['body', 'keys', 'query', 'csv', 'path'] as const;
export type DeleteStyle = (typeof DELETE_STYLES)[number];
const millis = z.number().int().nonnegative();

export const authSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('none') }),
  z.strictObject({ type: z.literal('bearer'), token: z.string().min(1) }),
  z
    .strictObject({
      type: z.literal('apiKey'),
      /** Where the key goes: one of header (default `X-Api-Key`), query parameter or cookie. */
      header: z.string().min(1).optional(),
      query: z.string().min(1).optional(),
      cookie: z.string().min(1).optional(),
      key: z.string().min(1),
    })
    .refine((a) => [a.header, a.query, a.cookie].filter((v) => v !== undefined).length <= 1, {
      message: 'one of header, query or cookie names where the key goes, not several',
    }),
  z.strictObject({ type: z.literal('basic'), username: z.string().min(1), password: z.string() }),
  z.strictObject({
    type: z.literal('oauth2'),
    /** An http(s) URL, or one relative to interface.baseUrl (`/oauth/token`, `oauth/token`). */
    tokenUrl: z
      .string()
      .min(1)
      .refine((u) => !/^[a-z][a-z\d+.-]*:/i.test(u) || /^https?:\/\/[^/]/i.test(u), {
        message: 'an http(s) URL, or a path relative to interface.baseUrl',
      }),
    clientId: z.string().min(1),
    clientSecret: z.string().min(1),
    scope: z.string().optional(),
    /** How the client authenticates to tokenUrl: HTTP basic (RFC 6749's default) or form fields. */
    clientAuth: z.enum(['basic', 'body']).default('basic'),
  }),
]);
export type AuthConfig = z.infer<typeof authSchema>;

/**
 * How a read's pages are asked for and followed (docs/INTERFACE.md, Reads): a page number, a cursor
 * (or a next URL) the answer gives, or a `Link: rel="next"` header.
 */
export const pagingSchema = z.strictObject({
  /** The answer's property (dotted path) that holds the items; '' when the answer is the array. */
  items: z.string().optional(),
  /** The query parameter of the page number (from 1). */
  page: z.string().min(1).optional(),
  /** The query parameter of the page size. */
  size: z.string().min(1).optional(),
  /** The largest page size the platform takes. */
  maxSize: positiveInt.optional(),
  /** The query parameter that carries the cursor of the next page. */
  cursor: z.string().min(1).optional(),
  /** The answer's property (dotted path) holding the next page's cursor or URL. */
  next: z.string().min(1).optional(),
  /** The next page's URL comes in a `Link: <...>; rel="next"` header. */
  link: z.boolean().optional(),
});
export type PagingConfig = z.infer<typeof pagingSchema>;

/**
 * Where the platform's answers put their words (docs/INTERFACE.md, Answers): a refusal's message and
 * item errors, and a 207's per-item results. Property names; dotted paths reach into objects.
 */
export const answersSchema = z.strictObject({
  /** A refusal's words, the first present wins (`detail`, `title`, `message`). */
  words: z.array(z.string().min(1)).optional(),
  /** A refusal's array of item errors (`errors`, `error.details`). */
  errors: z.string().min(1).optional(),
  /** An item error's pointer property (`pointer`, `field`). */
  pointer: z.string().min(1).optional(),
  /** The media type refusals come in (`application/problem+json`). */
  errorType: z.string().min(1).optional(),
  /** A 207's array of per-item results ('' when the answer is the array). */
  results: z.string().optional(),
  /** A result's key property (the item's key). */
  resultKey: z.string().min(1).optional(),
  /** A result's outcome property: an HTTP status, a boolean, or one of words. */
  resultStatus: z.string().min(1).optional(),
  /** Values of resultStatus that mean the item was applied (besides 2xx and true). */
  resultOk: z.array(z.string()).optional(),
  /** The value of resultStatus for an item refused (the simulator writes it). */
  resultNo: z.string().optional(),
  /** A result's error (an object or an array of item errors). */
  resultErrors: z.string().min(1).optional(),
});
export type AnswersConfig = z.infer<typeof answersSchema>;

/** How one operation's request is shaped; the defaults live in src/interface/bindings.ts. */
export const bindingSchema = z.strictObject({
  /** Largest number of items in one request of a batch operation. */
  maxItems: positiveInt.optional(),
  /** Largest request body in bytes; a batch is cut before it grows past this. */
  maxBytes: positiveInt.optional(),
  /**
   * DELETE: the keys as a JSON array of key objects (`body`, default) or of bare keys (`keys`),
   * either in the envelope if one is set; a repeated (`query`) or comma-separated (`csv`) query
   * parameter; or one request per key in the path (`path`).
   */
  deleteStyle: z.enum(DELETE_STYLES).optional(),
  /** Query parameter name used when deleteStyle is `query` or `csv`. */
  deleteQueryParam: z.string().min(1).optional(),
  /** The item field that carries the source system's key. */
  keyField: z.string().min(1).optional(),
  /** Sent without any credential (the description's `security: []`). */
  public: z.boolean().optional(),
  /** OAuth2: the scopes the operation's token must carry. */
  scopes: z.array(z.string().min(1)).optional(),
  /** The body is an object whose property of this name holds the items' array (`{"categories": [...]}`). */
  envelope: z.string().min(1).optional(),
  /** Override the path (keeps `{param}` placeholders). */
  path: z.string().startsWith('/').optional(),
  /**
   * products.put / products.patch: each item may carry the product's `prices`, so a price change
   * travels in the product batch instead of a products.prices.patch request of its own.
   */
  pricesInBatch: z.boolean().optional(),
  /** A read's pages. */
  paging: pagingSchema.optional(),
  /** Where refusals and per-item results put their words. */
  answers: answersSchema.optional(),
});
export type BindingConfig = z.infer<typeof bindingSchema>;

/**
 * A platform's name (docs/PLATFORMS.md): lowercase letters, digits and `_`, so that its environment
 * variables (`FERRY_PLATFORM_<NAME>_BASE_URL`) are one spelling of it.
 */
export const PLATFORM_NAME = /^[a-z][a-z0-9_]{0,31}$/;

/**
 * One shop of several (`platforms.<name>`): its address and credential, and what differs from the
 * top-level `interface` and `delivery`; every other interface key is the top-level one's.
 */
const platformSchema = z.strictObject({
  baseUrl: z.url(),
  auth: authSchema,
  listing: z.enum(LISTINGS).optional(),
  /** Its own description (a file path or an http(s) URL); absent: the top-level interface.openapi. */
  openapi: z.string().min(1).optional(),
  idempotencyHeader: z.string().min(1).optional(),
  bindings: z.record(z.string(), bindingSchema).optional(),
  delivery: z
    .strictObject({
      ratePerSecond: z.union([z.literal('auto'), z.number().int().min(0)]).optional(),
      bulkShare: z.number().gt(0).max(1).optional(),
      /** Jobs of this platform one worker process runs at once per lane, within delivery.concurrency. */
      concurrency: positiveInt.optional(),
    })
    .optional(),
});
export type PlatformSettings = z.infer<typeof platformSchema>;

const configObject = z.strictObject({
  redis: z
    .strictObject({
      url: z
        .string()
        .regex(/^rediss?:\/\//, 'a redis:// or rediss:// URL')
        .default('redis://127.0.0.1:6379'),
      prefix: z
        .string()
        .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, `_`, `.` or `-`')
        .default('ferry'),
      /** standalone: the Redis at url; cluster: one seeded by url (and nodes); sentinel: see below. */
      mode: z.enum(['standalone', 'cluster', 'sentinel']).default('standalone'),
      /** Cluster: more seed nodes besides url, so that one node down does not stop a start. */
      nodes: z.array(z.string().regex(/^rediss?:\/\//, 'a redis:// or rediss:// URL')).optional(),
      /** Sentinel: the sentinels, `host:port` each; url then only gives credentials, db, TLS. */
      sentinels: z
        .array(z.string().regex(/^[^\s:/]+:\d+$/, 'host:port'))
        .min(1)
        .optional(),
      /** Sentinel: the name of the master the sentinels monitor. */
      name: z.string().min(1).optional(),
    })
    .superRefine((redis, ctx) => {
      const sentinel = redis.mode === 'sentinel';
      if (sentinel && !redis.sentinels)
        ctx.addIssue({ code: 'custom', path: ['sentinels'], message: 'required by mode sentinel' });
      if (sentinel && !redis.name)
        ctx.addIssue({ code: 'custom', path: ['name'], message: 'required by mode sentinel' });
      for (const key of ['sentinels', 'name'] as const) {
        if (!sentinel && redis[key] !== undefined)
          ctx.addIssue({ code: 'custom', path: [key], message: 'only used with mode sentinel' });
      }
      if (redis.mode === 'cluster' && /^rediss?:\/\/[^/]*\/0*[1-9]/.test(redis.url))
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'a cluster has database 0 only' });
      if (redis.mode !== 'cluster' && redis.nodes !== undefined)
        ctx.addIssue({ code: 'custom', path: ['nodes'], message: 'only used with mode cluster' });
    })
    .prefault({}),
  interface: z
    .strictObject({
      baseUrl: z.url().default('http://127.0.0.1:4010'),
      /** The spec's demo server: used instead of baseUrl when useDemo is true. */
      demoBaseUrl: z.url().default('http://127.0.0.1:4010'),
      useDemo: z.boolean().default(false),
      listing: z.enum(LISTINGS).default('A'),
      /** The platform's OpenAPI description: a file path or an http(s) URL (docs/INTERFACE.md). */
      openapi: z.string().min(1).optional(),
      auth: authSchema.default({ type: 'bearer', token: 'dev-token' }),
      idempotencyHeader: z.string().min(1).default('Idempotency-Key'),
      connections: positiveInt.default(16),
      timeouts: z
        .strictObject({
          connectMs: positiveInt.default(5_000),
          headersMs: positiveInt.default(30_000),
          bodyMs: positiveInt.default(30_000),
        })
        .prefault({}),
      /** Longest wait a Retry-After may impose. */
      retryAfterCapMs: positiveInt.default(60_000),
      /** In-process retries of connection-level failures (reset keep-alive socket), per call. */
      quickRetries: z.number().int().min(0).max(5).default(2),
      bindings: z.record(z.string(), bindingSchema).default({}),
    })
    .prefault({}),
  /** More shops than the top-level `interface` (which is the platform `default`). */
  platforms: z
    .record(z.string(), platformSchema)
    .superRefine((platforms, ctx) => {
      for (const name of Object.keys(platforms)) {
        if (name === 'default') {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'the top-level `interface` is the platform `default`: set it there',
          });
        } else if (!PLATFORM_NAME.test(name)) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'expected a name of lowercase letters, digits and `_`, starting with a letter',
          });
        }
      }
    })
    .default({}),
  delivery: z
    .strictObject({
      /** Jobs one worker process runs at once (and connections of its pool). */
      concurrency: positiveInt.default(8),
      /** BullMQ attempts per job for transient failures. */
      attempts: positiveInt.default(8),
      backoff: z
        .strictObject({ baseMs: positiveInt.default(500), capMs: positiveInt.default(60_000) })
        .prefault({}),
      /**
       * Requests per second to the interface, shared by every worker process: `auto` follows the
       * platform's rate-limit headers, or finds its limit from its 429s; a number is a fixed rate
       * (0: unlimited).
       */
      ratePerSecond: z.union([z.literal('auto'), z.number().int().min(0)]).default('auto'),
      /** While interactive requests wait, the most of the rate bulk requests may take. */
      bulkShare: z.number().gt(0).max(1).default(0.8),
      /** Most HTTP calls one job may make, splits and retries included. */
      retryBudget: positiveInt.default(32),
      /** How long a stopping worker waits for the requests its jobs have out (they hand the rest back). */
      shutdownTimeoutMs: millis.default(30_000),
      /** Folder the run reports are written to. */
      reportsDir: z.string().min(1).default('reports'),
      /** Requests per job for one-entity operations (a product's prices): the queue's cost per job. */
      bundleSize: z.number().int().min(1).max(1_000).default(100),
      /**
       * How often a job under way commits and counts what the platform confirmed so far, and reads
       * its run's status (a cancel stops it there); a job of a hundred requests under a rate limit
       * takes minutes, a quicker one does both once.
       */
      progressEveryMs: z.number().int().min(100).default(2_000),
      /** Completed jobs each lane's queue keeps for the queue board (0: none). */
      keepCompletedJobs: z.number().int().min(0).max(100_000).default(1_000),
      /**
       * The platform refusing everyone (401/403, or 404/405 for the route) on `threshold`
       * consecutive requests pauses the pipeline's delivery; a probe every `probeSeconds`.
       */
      breaker: z
        .strictObject({
          threshold: positiveInt.default(20),
          probeSeconds: z.number().positive().default(30),
        })
        .prefault({}),
      /** Lane of a pipeline without an entry in pipelineLanes. */
      lane: z.enum(['bulk', 'interactive']).default('bulk'),
      /** Pipeline name -> lane; `interactive` jobs never wait behind a `bulk` backlog. */
      pipelineLanes: z.record(z.string(), z.enum(['bulk', 'interactive'])).default({}),
      /** A worker's lock on a job; a killed worker's jobs are taken over after it expires. */
      lockDurationMs: z.number().int().min(1_000).default(30_000),
      /** How often workers look for jobs whose lock expired (stalled jobs). */
      stalledIntervalMs: z.number().int().min(500).default(15_000),
      /** Times a job may stall (its worker died) before it is dead-lettered. */
      maxStalledCount: z.number().int().min(0).default(3),
    })
    .prefault({}),
  pipelines: z
    .strictObject({
      /** Folder of pipeline definitions: a pipeline NAME is <dir>/NAME.yaml. */
      dir: z.string().min(1).default('config/pipelines'),
    })
    .prefault({}),
  serve: z
    .strictObject({
      /** `ferry serve` listens here; a host other than loopback needs a token. */
      host: z.string().min(1).default('127.0.0.1'),
      port: z.coerce.number().int().min(0).max(65535).default(8787),
      /** Bearer tokens and their roles (FERRY_VIEWER_TOKEN / FERRY_OPERATOR_TOKEN add one each). */
      tokens: z
        .array(
          z.strictObject({
            name: z.string().min(1),
            role: z.enum(['viewer', 'operator']),
            token: z.string().min(16, 'expected a token of at least 16 characters'),
            /** The platforms it sees and acts on (absent: every one); each a name in platforms. */
            platforms: z
              .array(z.string().regex(PLATFORM_NAME, 'a platform name from the config'))
              .min(1)
              .optional(),
          }),
        )
        .default([]),
      /** /metrics without a token (a scraper inside a trusted network). */
      metricsPublic: z.boolean().default(false),
      /** The largest file an HTTP import takes (FERRY_UPLOAD_MAX_BYTES). */
      uploadMaxBytes: z.coerce
        .number()
        .int()
        .positive()
        .default(100 * 1024 * 1024),
      /** Days an uploaded file is kept (under delivery.reportsDir/uploads) for its run's report. */
      uploadRetentionDays: z.number().int().positive().default(7),
      /** Hours a browser session of the console lasts after its last use. */
      sessionHours: z.number().positive().max(720).default(12),
      /** Deadline of each Redis read behind a page or API route: past it, 503 FERRY_REDIS_UNAVAILABLE. */
      redisTimeoutMs: z.number().int().positive().max(60_000).default(5_000),
      /** Failed or not, logins one client address may try per minute. */
      loginAttemptsPerMinute: z.number().int().positive().default(10),
      /** Allowing a guard-stopped run needs another operator than the one who started it. */
      fourEyes: z.boolean().default(false),
    })
    .prefault({}),
  undo: z
    .strictObject({
      /** Days a run's before-images are kept: how long `ferry undo RUN` can restore it. */
      retentionDays: z.number().positive().max(366).default(14),
    })
    .prefault({}),
  notifications: z
    .strictObject({
      /** Signs every webhook body (HMAC-SHA256); FERRY_WEBHOOK_SECRET. Never logged. */
      secret: z.string().min(16, 'expected a secret of at least 16 characters').optional(),
      /** Tries of a webhook that does not answer 2xx, backing off exponentially. */
      attempts: z.number().int().min(1).max(20).default(8),
    })
    .prefault({}),
  telemetry: z
    .strictObject({
      otlp: z
        .strictObject({
          /**
           * Base URL of an OTLP/HTTP collector (traces go to <endpoint>/v1/traces);
           * OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT win over it.
           */
          endpoint: z.url().optional(),
        })
        .prefault({}),
      /** A trace's page in the tracing backend, `{traceId}` replaced: the entity trace links it. */
      traceUrl: z
        .string()
        .regex(/^https?:\/\/.*\{traceId\}/, 'an http(s) URL with {traceId} in it')
        .optional(),
    })
    .prefault({}),
  log: z
    .strictObject({
      level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
      /** `auto`: readable on a terminal, JSON otherwise. */
      format: z.enum(['auto', 'json', 'pretty']).default('auto'),
    })
    .prefault({}),
});

/** The configuration, with the checks across keys: a console token's platforms must exist. */
export const configSchema = configObject.superRefine((config, ctx) => {
  const known = ['default', ...Object.keys(config.platforms)];
  config.serve.tokens.forEach((token, i) => {
    token.platforms?.forEach((name, j) => {
      if (known.includes(name)) return;
      ctx.addIssue({
        code: 'custom',
        path: ['serve', 'tokens', i, 'platforms', j],
        message: `no such platform; platforms: ${known.join(', ')} (config key platforms)`,
      });
    });
  });
});

/**
 * The platform's description a config plans and sends by (interface.openapi), attached by
 * src/runs/contract/contracted-config.ts, never read from a file: its bindings are merged into
 * `interface.bindings`, its request schemas check the payloads.
 */
export interface ContractInUse {
  /** `pinned`: the description `ferry interface pull` / `accept` pinned; `live`: as read now. */
  from: 'pinned' | 'live';
  source: string;
  sha256: string;
  text: string;
  /** `interface.bindings` as the config set them, before the description's were merged in. */
  configured: Record<string, BindingConfig>;
  /** The catalog operations the description declares (a read it lacks is refused by name). */
  operations?: string[];
}

export type FerryConfig = z.infer<typeof configSchema> & {
  contract?: ContractInUse;
  /**
   * The platform this config speaks for (platforms.ts: `platformConfig`): its `interface` and
   * `delivery` are that platform's. Absent: `default`, the top-level interface.
   */
  platform?: string;
};
