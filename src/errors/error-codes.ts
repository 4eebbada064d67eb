/**
 * Every stable error code, in one place, with what it means over HTTP and what it carries:
 * a code is never reused with another meaning, the console answers each with the status declared
 * here (the table is total: a code cannot be added without one), and `details` has one type per
 * code (error-details.ts). The console's own codes (a request, not a command, went wrong) are in
 * the same list.
 */
import type {
  BodyShapeDetails,
  ConfigDetails,
  ContractDetails,
  DeadLetterCountDetails,
  ExportDetails,
  HttpDetails,
  InputDetails,
  JobDetails,
  MassDeleteDetails,
  NoDetails,
  NotFoundDetails,
  OpenApiDetails,
  OperationDetails,
  RedisDetails,
  RunDetails,
  StateLostDetails,
  StatePlatformDetails,
  TransformDetails,
  UploadDetails,
  ValueGuardDetails,
} from './error-details.js';

/** A code's declaration: its HTTP status, and (as a type only) the shape of its details. */
export interface ErrorDeclaration<D> {
  readonly status: number;
  /** Never set: carries the details type `D` for ErrorDetails<C>. */
  readonly details?: D;
}

function declared<D>(status: number): ErrorDeclaration<D> {
  return { status };
}

export const ERRORS = {
  // usage and configuration (exit 2)
  FERRY_USAGE: declared<InputDetails>(400),
  FERRY_CONFIG_INVALID: declared<ConfigDetails>(400),
  FERRY_OPERATION_NOT_IN_LISTING: declared<OperationDetails>(400),
  FERRY_OPERATION_UNKNOWN: declared<OperationDetails>(400),
  /** A read's pages cannot be followed: an answer without its items, a cursor seen twice. */
  FERRY_READ_PAGES: declared<OperationDetails>(502),
  // interface (HTTP) outcomes: the platform's answers, seen through the console as a bad gateway
  FERRY_HTTP_TRANSIENT: declared<HttpDetails>(502),
  FERRY_HTTP_IN_PROGRESS: declared<HttpDetails>(502),
  FERRY_HTTP_RATE_LIMITED: declared<HttpDetails>(502),
  FERRY_HTTP_PERMANENT: declared<HttpDetails>(502),
  FERRY_HTTP_PAYLOAD_TOO_LARGE: declared<HttpDetails>(502),
  FERRY_HTTP_AUTH: declared<HttpDetails>(502),
  FERRY_NETWORK: declared<HttpDetails>(502),
  FERRY_TIMEOUT: declared<HttpDetails>(504),
  // input reading and mapping: the sender's file is at fault
  FERRY_INPUT_INVALID: declared<InputDetails>(422),
  FERRY_CONNECTOR: declared<InputDetails>(422),
  FERRY_SOURCE: declared<InputDetails>(422),
  FERRY_SOURCE_UNCHANGED: declared<InputDetails>(409),
  // planning and delivery
  FERRY_MASS_DELETE_GUARD: declared<MassDeleteDetails>(409),
  FERRY_RUN_ACTIVE: declared<RunDetails>(409),
  FERRY_RETRY_BUDGET_EXHAUSTED: declared<JobDetails>(503),
  FERRY_STALE: declared<JobDetails>(409),
  FERRY_REDIS_UNAVAILABLE: declared<RedisDetails>(503),
  // connectors (appended)
  FERRY_CONNECTOR_UNKNOWN: declared<InputDetails>(400),
  // delivery (appended)
  FERRY_DELIVERY_DEFERRED: declared<JobDetails>(503),
  FERRY_DELIVERY_FAILED: declared<JobDetails>(502),
  FERRY_NOT_FOUND: declared<NotFoundDetails>(404),
  FERRY_RUN_LOCK_LOST: declared<RunDetails>(409),
  FERRY_TRANSFORM_UNDECLARED_READ: declared<TransformDetails>(500),
  FERRY_RUN_FINISHED: declared<RunDetails>(409),
  FERRY_NO_RECORDS: declared<InputDetails>(422),
  FERRY_STATE_LOST: declared<StateLostDetails>(409),
  FERRY_REDIS_DATA_LOST: declared<RunDetails>(503),
  FERRY_LOOKUP: declared<InputDetails>(422),
  FERRY_INTERRUPTED: declared<RunDetails>(503),
  FERRY_WORKER_STOPPED: declared<JobDetails>(503),
  FERRY_UPLOAD_TOO_LARGE: declared<UploadDetails>(413),
  FERRY_UNSUPPORTED_MEDIA_TYPE: declared<UploadDetails>(415),
  // exports (appended)
  FERRY_EXPORT_FILE_EXISTS: declared<ExportDetails>(409),
  FERRY_EXPORT_LISTING: declared<ExportDetails>(502),
  FERRY_EXPORT_RECORD: declared<ExportDetails>(422),
  FERRY_EXPORT_WRITE: declared<ExportDetails>(500),
  // remote sources (appended)
  FERRY_SOURCE_UNREACHABLE: declared<InputDetails>(502),
  FERRY_SOURCE_HOST_KEY: declared<InputDetails>(502),
  // the breaker for platform-wide refusals (appended)
  FERRY_DELIVERY_BLOCKED: declared<RunDetails>(503),
  FERRY_RUN_NOT_BLOCKED: declared<RunDetails>(409),
  // the platform's OpenAPI description (appended)
  FERRY_OPENAPI_INVALID: declared<OpenApiDetails>(500),
  FERRY_CONTRACT_BREAKING: declared<ContractDetails>(409),
  FERRY_OPENAPI_REF_REFUSED: declared<OpenApiDetails>(500),
  FERRY_OPENAPI_BUDGET: declared<OpenApiDetails>(500),
  FERRY_OPENAPI_STOPPED: declared<OpenApiDetails>(503),
  // dead letters purged by a search (appended)
  FERRY_DEAD_LETTERS_CHANGED: declared<DeadLetterCountDetails>(409),
  // a body Ferry cannot build in the shape the description states (appended)
  FERRY_CONTRACT_SHAPE: declared<BodyShapeDetails>(409),
  // value guards and undo (appended)
  FERRY_VALUE_GUARD: declared<ValueGuardDetails>(409),
  FERRY_GUARD_ALLOW: declared<RunDetails>(409),
  FERRY_FOUR_EYES: declared<RunDetails>(403),
  FERRY_UNDO: declared<RunDetails>(409),
  // state bound to its platform (appended)
  FERRY_STATE_OTHER_PLATFORM: declared<StatePlatformDetails>(409),
  // several platforms per installation (appended)
  FERRY_RATE_WAIT: declared<JobDetails>(503),
  // the console's own: the request went wrong, not a command
  FERRY_UNAUTHORIZED: declared<NoDetails>(401),
  FERRY_FORBIDDEN: declared<NoDetails>(403),
  FERRY_CSRF: declared<NoDetails>(403),
  FERRY_LOGIN_RATE_LIMITED: declared<NoDetails>(429),
  FERRY_BAD_REQUEST: declared<NoDetails>(400),
  FERRY_INTERNAL: declared<NoDetails>(500),
} as const satisfies Record<`FERRY_${string}`, ErrorDeclaration<unknown>>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** The details an error of code `C` carries. */
export type ErrorDetails<C extends ErrorCode> =
  (typeof ERRORS)[C] extends ErrorDeclaration<infer D> ? D : never;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERRORS, code);
}

/** The HTTP status the console answers an error of this code with. */
export function httpStatusOf(code: ErrorCode): number {
  return ERRORS[code].status;
}
