import { isSpanContextValid, trace } from '@opentelemetry/api';
import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths whose values are secrets wherever they appear in a log object. Secrets are redacted by path
 * and never interpolated into message strings.
 */
export const REDACT_PATHS = [
  'token',
  'password',
  'clientSecret',
  'apiKey',
  'authorization',
  '*.token',
  '*.password',
  '*.clientSecret',
  '*.apiKey',
  '*.authorization',
  'headers.authorization',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'config.interface.auth',
  'interface.auth',
  'auth',
  '*.auth',
  'secret',
  '*.secret',
  'privateKey',
  '*.privateKey',
  'passphrase',
  '*.passphrase',
  'secretAccessKey',
  '*.secretAccessKey',
  'sessionToken',
  '*.sessionToken',
];

export interface LoggerOptions {
  level?: string;
  format?: 'auto' | 'json' | 'pretty';
  /** Where log lines go; stderr by default so that `--json` output on stdout stays clean. */
  destination?: NodeJS.WritableStream;
}

/**
 * A line logged while a span is active carries its `trace_id` and `span_id` (a no-op lookup when
 * no tracer provider is registered: src/logging/telemetry.ts). A new object each time: pino
 * merges the line's own fields into it.
 */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const ids = span.spanContext();
  return isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}

/** JSON lines by default; readable lines when stderr is a terminal (format `auto`). */
export function createLogger(options: LoggerOptions = {}): Logger {
  const destination = options.destination ?? process.stderr;
  const format = options.format ?? 'auto';
  const pretty =
    format === 'pretty' ||
    (format === 'auto' && (destination as { isTTY?: boolean }).isTTY === true);
  const base = {
    level: options.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: undefined,
    mixin: traceFields,
  };
  if (pretty) {
    return pino({
      ...base,
      transport: {
        target: 'pino-pretty',
        options: { destination: 2, colorize: true, translateTime: 'SYS:HH:MM:ss' },
      },
    });
  }
  return pino(base, destination as pino.DestinationStream);
}
