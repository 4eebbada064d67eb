/** `ferry simulator` flags -> SimulatorOptions; a bad value is a UsageError naming the flag. */
import type { ParsedArgs } from './command.js';
import { stringOption } from './command.js';
import { UsageError } from '../errors/index.js';
import type { Listing } from '../config/index.js';
import type { Faults, SimulatorOptions } from '../simulator/index.js';

export const DEFAULT_CLI_PORT = 4010;

function integer(args: ParsedArgs, name: string, min: number, max: number): number | undefined {
  const raw = stringOption(args, name);
  if (raw === undefined) return undefined;
  const value = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}

function share(args: ParsedArgs, name: string): number | undefined {
  const raw = stringOption(args, name);
  if (raw === undefined) return undefined;
  const value = /^(\d+(\.\d*)?|\.\d+)$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!(value >= 0 && value <= 1)) {
    throw new UsageError(`--${name} must be a share from 0 to 1 (e.g. 0.1), got "${raw}".`);
  }
  return value;
}

function latency(args: ParsedArgs): [number, number] | undefined {
  const raw = stringOption(args, 'latency');
  if (raw === undefined) return undefined;
  const m = /^(\d+)(?:-(\d+))?$/.exec(raw.trim());
  const min = m ? Number(m[1]) : NaN;
  const max = m ? Number(m[2] ?? m[1]) : NaN;
  if (!(min <= max)) {
    throw new UsageError(
      `--latency must be MIN-MAX milliseconds with MIN <= MAX (e.g. 20-200) or one number, got "${raw}".`,
    );
  }
  return [min, max];
}

function oneOf<T extends string>(args: ParsedArgs, name: string, values: readonly T[]) {
  const raw = stringOption(args, name);
  if (raw === undefined) return undefined;
  if (!values.includes(raw as T)) {
    throw new UsageError(`--${name} must be ${values.join(' or ')}, got "${raw}".`);
  }
  return raw as T;
}

function nonEmpty(args: ParsedArgs, name: string): string | undefined {
  const raw = stringOption(args, name);
  if (raw !== undefined && raw.trim() === '') {
    throw new UsageError(`--${name} must not be empty.`);
  }
  return raw;
}

/** Most serving processes `--processes` takes. */
export const MAX_PROCESSES = 64;

/**
 * `--processes N`: how many processes serve (default 1, today's one process). Several serve Ferry's
 * assumed interface only.
 */
export function processesFromArgs(args: ParsedArgs): number {
  const processes = integer(args, 'processes', 1, MAX_PROCESSES) ?? 1;
  if (processes > 1 && stringOption(args, 'openapi') !== undefined) {
    throw new UsageError(
      "--processes serves Ferry's assumed interface; with --openapi the simulator runs as one process.",
    );
  }
  return processes;
}

export async function simulatorOptionsFromArgs(args: ParsedArgs): Promise<SimulatorOptions> {
  // Loaded only now: the config layer weighs (zod), and `--help` needs none of it.
  const { LISTINGS } = await import('../config/index.js');
  const faults: Partial<Faults> = {
    failRate: share(args, 'fail-rate'),
    rateLimit: integer(args, 'rate-limit', 0, 1_000_000),
    latency: latency(args),
    resetRate: share(args, 'reset-rate'),
    applyThenFailRate: share(args, 'apply-then-fail-rate'),
    retryAfter: oneOf(args, 'retry-after', ['seconds', 'date'] as const),
    rateLimitHeaders: oneOf(args, 'rate-limit-headers', ['ietf', 'x', 'none'] as const),
    rateLimitCost: oneOf(args, 'rate-limit-cost', ['requests', 'items'] as const),
  };
  const rejectKeys = stringOption(args, 'reject-keys');
  if (rejectKeys !== undefined) {
    faults.rejectKeys = rejectKeys
      .split(',')
      .map((k) => k.trim())
      .filter((k) => k !== '');
  }
  const clientId = nonEmpty(args, 'client-id');
  const clientSecret = nonEmpty(args, 'client-secret');
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new UsageError('--client-id and --client-secret go together: give both or neither.');
  }
  const openapi = nonEmpty(args, 'openapi');
  if (openapi !== undefined && stringOption(args, 'listing') !== undefined) {
    throw new UsageError(
      '--listing and --openapi exclude each other: the description says which operations exist.',
    );
  }
  return {
    port: integer(args, 'port', 0, 65_535) ?? DEFAULT_CLI_PORT,
    ...(openapi !== undefined ? { openapi } : {}),
    host: nonEmpty(args, 'host') ?? '127.0.0.1',
    listing: oneOf<Listing>(args, 'listing', LISTINGS) ?? 'A',
    token: nonEmpty(args, 'token'),
    idempotencyHeader: nonEmpty(args, 'idempotency-header'),
    seed: integer(args, 'seed', 0, 2 ** 32 - 1),
    ordersPerMinute: integer(args, 'orders-per-minute', 0, 1_000_000),
    faults: Object.fromEntries(Object.entries(faults).filter(([, v]) => v !== undefined)),
    oauth: clientId && clientSecret ? { clientId, clientSecret } : undefined,
  };
}
