/**
 * OpenTelemetry traces over OTLP/HTTP, started only when an endpoint is configured
 * (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT or telemetry.otlp.endpoint):
 * the SDK and its exporter are imported here and nowhere else, so an unconfigured process loads
 * none of them. The instrumented code uses `@opentelemetry/api` only, a no-op until this module
 * registers a provider. The endpoint is read from `env` (the command's); the SDK itself reads the
 * other OTEL_* variables from the process's environment (headers, timeout, compression,
 * OTEL_TRACES_SAMPLER, OTEL_BSP_*, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES).
 */

import { diag, DiagLogLevel } from '@opentelemetry/api';
import { ConfigError } from '../errors/index.js';

export interface Telemetry {
  /** Exports the spans still buffered, then stops; the process's graceful stop awaits it. */
  shutdown(): Promise<void>;
}

const DEFAULT_SERVICE_NAME = 'ferry';

/** The endpoint traces go to, or undefined when tracing is off. */
export function tracesEndpoint(
  env: NodeJS.ProcessEnv,
  configured: string | undefined,
): string | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const fromEnv = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return fromEnv || configured || undefined;
}

const PROTOCOLS = ['http/json', 'http/protobuf'] as const;

/** The values of OTEL_EXPORTER_OTLP_(TRACES_)HEADERS (`k=v,k2=v2`): credentials, never logged. */
function headerValues(env: NodeJS.ProcessEnv): string[] {
  const lists = [env.OTEL_EXPORTER_OTLP_HEADERS, env.OTEL_EXPORTER_OTLP_TRACES_HEADERS];
  return lists
    .flatMap((list) => (list ?? '').split(','))
    .map((pair) => pair.slice(pair.indexOf('=') + 1).trim())
    .flatMap((value) => [value, safeDecode(value)])
    .filter((value) => value.length >= 4);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const quiet = (): void => undefined;

/**
 * Where the SDK's own warnings and errors go (an export the collector refused or never
 * answered): `onWarning`, the exporter's header values blanked out; nowhere without it.
 */
function reporter(
  env: NodeJS.ProcessEnv,
  onWarning: ((message: string) => void) | undefined,
): (message: string, ...args: unknown[]) => void {
  if (!onWarning) return quiet;
  const secrets = headerValues(env);
  return (message, ...args) => {
    let text = [message, ...args.map((a) => (typeof a === 'string' ? a : String(a)))].join(' ');
    for (const secret of secrets) text = text.split(secret).join('[redacted]');
    onWarning(text);
  };
}

/**
 * OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL: `http/json` (the default) or `http/protobuf`; gRPC is
 * not one Ferry sends (ConfigError, exit 2).
 */
export function tracesProtocol(env: NodeJS.ProcessEnv): (typeof PROTOCOLS)[number] {
  const name = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const given = env[name]?.trim() || 'http/json';
  const known = PROTOCOLS.find((p) => p === given);
  if (known) return known;
  throw new ConfigError(name, [
    { path: name, message: `expected http/json or http/protobuf (OTLP over HTTP), got ${given}` },
  ]);
}

/**
 * Registers the global tracer provider (batch span processor, OTLP/HTTP exporter, W3C
 * trace-context propagation, AsyncLocalStorage context). `configured` is telemetry.otlp.endpoint,
 * a base URL like OTEL_EXPORTER_OTLP_ENDPOINT: used only when neither variable is set.
 */
export async function startTelemetry(
  env: NodeJS.ProcessEnv,
  configured: string | undefined,
  onWarning?: (message: string) => void,
): Promise<Telemetry | undefined> {
  if (tracesEndpoint(env, configured) === undefined) return undefined;
  const protocol = tracesProtocol(env);
  const warn = reporter(env, onWarning);
  diag.setLogger(
    { error: warn, warn, info: quiet, debug: quiet, verbose: quiet },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, { OTLPTraceExporter }, resources] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/sdk-trace-base'),
      protocol === 'http/protobuf'
        ? import('@opentelemetry/exporter-trace-otlp-proto')
        : import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  // A base URL gets the signal's path; the traces variable is the whole URL (as the spec says).
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT || configured;
  const url =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || `${(base as string).replace(/\/+$/, '')}/v1/traces`;
  const exporter = new OTLPTraceExporter({ url });
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (envDetector) win over Ferry's default name.
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': DEFAULT_SERVICE_NAME }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register();
  return {
    // A last export that fails is reported, never thrown: the command's own outcome stands.
    shutdown: () =>
      provider.shutdown().catch((error: unknown) => {
        const code = (error as { code?: unknown }).code;
        warn(`traces not exported at shutdown: ${(error as Error).name} ${String(code ?? '')}`);
      }),
  };
}
