/**
 * What each error code carries in `details` (and in the `--json` error document beside `code` and
 * `message`). Declared here, beside the codes (error-codes.ts), so that whoever reads an error's
 * details by its code gets their type without a cast. Names, paths and counts only: never a secret.
 */

/** Where in an input or a command something went wrong; other fields vary with the reader. */
export interface InputDetails {
  file?: string;
  line?: number;
  field?: string;
  folder?: string;
  [other: string]: unknown;
}

export interface ConfigIssue {
  /** Dotted path of the offending key, e.g. `interface.auth.type`. */
  path: string;
  /** What was expected there, in words. */
  message: string;
}

export interface ConfigDetails {
  source: string;
  issues: ConfigIssue[];
}

/** An interface request that failed (see src/interface/errors.ts); never the request's headers. */
export interface HttpDetails {
  operationId: string;
  method?: string;
  path?: string;
  status?: number;
  bodyExcerpt?: string;
  body?: unknown;
  headers?: Record<string, string>;
  [other: string]: unknown;
}

export interface OperationDetails {
  operationId: string;
  [other: string]: unknown;
}

export interface MassDeleteDetails {
  pipeline: string;
  /** Deletes the plan would send. */
  deletes: number;
  /** Live entities in state (of the resources the pipeline deletes). */
  inState: number;
  maxShare: number;
  rows: number;
  minRows: number;
  /** The deletes per delete operation. */
  operations: Record<string, number>;
  /** Some of the keys it would delete (at most DELETE_SAMPLE), in state's order. */
  sample: { operationId: string; key: string }[];
  /** The run the guard stopped, once recorded (ferry run, a schedule's tick). */
  runId?: string;
}

/** A planned body that does not fit the shape the description states (FERRY_CONTRACT_SHAPE). */
export interface BodyShapeDetails {
  pipeline: string;
  operationId: string;
  /** The shape Ferry builds, in words ("an array of bare keys in {"externalIds": [...]}"). */
  shape: string;
  /** JSON pointer in the body as it would be sent ('' for the whole body). */
  pointer: string;
  /** The rule it breaks, in words. */
  message: string;
  /** JSON pointer of the operation in the description. */
  describedAt: string;
  /** The entity's key. */
  key: string;
}

/** A breaking change to the platform's description (FERRY_CONTRACT_BREAKING). */
export interface ContractDetails {
  pipeline: string;
  /** The failed run that records the refusal. */
  runId?: string;
  /** sha256 of the pinned description and of the one read now. */
  pinned: string;
  seen: string;
  /** The breaking changes that touch the run's operations, each named by its JSON pointer. */
  breaking: { kind: string; operationId?: string; path: string; message: string }[];
}

/** What the value guards found (src/pipeline/guards/guard-report.ts has the results' shape). */
export interface ValueGuardDetails {
  pipeline: string;
  guards: { tripped: boolean; planDigest: string; results: readonly object[] };
  runId?: string;
}

/** A pipeline's state belongs to another platform than the one configured (FERRY_STATE_OTHER_PLATFORM). */
export interface StatePlatformDetails {
  pipeline: string;
  /** The normalised base URL the state was confirmed by, and the one configured now. */
  statePlatform: string;
  platform: string;
}

export interface RunDetails {
  pipeline?: string;
  runId?: string;
  status?: string;
}

export interface StateLostDetails {
  pipeline: string;
  items: number;
  requests: number;
  detectedAt: number;
}

export interface RedisDetails {
  /** host:port, never the URL (it may carry a password). */
  redis: string;
  /** Where a run stopped when Redis went away. */
  runId?: string;
  phase?: string;
}

/** A purge of "all that match" refused: a different number matches now than the one confirmed. */
export interface DeadLetterCountDetails {
  expected: number;
  found: number;
}

export interface NotFoundDetails {
  what: string;
  id: string;
}

export interface UploadDetails {
  pipeline?: string;
  limit?: number;
  contentType?: string;
  file?: string;
}

export interface ExportDetails {
  pipeline?: string;
  operationId?: string;
  path?: string;
  [other: string]: unknown;
}

export interface OpenApiDetails {
  /** The description's file or URL. */
  source: string;
  /** JSON pointer of the offending place ('' for the whole document). */
  pointer: string;
  /** The `$ref` refused (FERRY_OPENAPI_REF_REFUSED). */
  ref?: string;
  /** The budget exceeded (FERRY_OPENAPI_BUDGET): `time`, `memory`, `size`, `documents` or `depth`. */
  budget?: string;
}

export interface JobDetails {
  jobId?: string;
  requests?: number;
}

export interface TransformDetails {
  transform: string;
}

/** Errors the console gives about the request itself, with nothing more to say. */
export type NoDetails = Record<string, never>;
