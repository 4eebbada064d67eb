/** Fault settings: defaults, validation (shared by startSimulator, POST /__sim/faults and the CLI). */
import { z } from 'zod';
import { UsageError } from '../errors/index.js';
import type { Faults } from './types.js';

const share = z.number().min(0).max(1);

export const faultsPatchSchema = z.strictObject({
  failRate: share.optional(),
  rateLimit: z.number().int().min(0).optional(),
  latency: z
    .tuple([z.number().int().min(0), z.number().int().min(0)])
    .refine(([min, max]) => min <= max, 'min must not exceed max')
    .nullable()
    .optional(),
  resetRate: share.optional(),
  applyThenFailRate: share.optional(),
  rejectKeys: z.array(z.string()).optional(),
  retryAfter: z.enum(['seconds', 'date']).optional(),
  rateLimitHeaders: z.enum(['ietf', 'x', 'none']).optional(),
  rateLimitCost: z.enum(['requests', 'items']).optional(),
});

export const DEFAULT_FAULTS: Readonly<Faults> = Object.freeze({
  failRate: 0,
  rateLimit: 0,
  latency: null,
  resetRate: 0,
  applyThenFailRate: 0,
  rejectKeys: [],
  retryAfter: 'seconds',
  rateLimitHeaders: 'none',
  rateLimitCost: 'requests',
});

/** Bad fault settings (startSimulator options or POST /__sim/faults), each key named. */
export class InvalidFaultsError extends UsageError {
  readonly issues: { path: string; message: string }[];
  constructor(issues: { path: string; message: string }[]) {
    super(`invalid faults: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues });
    this.issues = issues;
  }
}

/** `base` with the validated values of `patch`; throws InvalidFaultsError naming each bad key. */
export function mergeFaults(base: Faults, patch: unknown): Faults {
  const parsed = faultsPatchSchema.safeParse(patch);
  if (!parsed.success) {
    throw new InvalidFaultsError(
      parsed.error.issues.map((i) => ({
        path: i.path.length ? i.path.join('.') : '(body)',
        message: i.message,
      })),
    );
  }
  const merged: Faults = { ...base, rejectKeys: [...base.rejectKeys] };
  for (const [key, value] of Object.entries(parsed.data)) {
    if (value !== undefined) Object.assign(merged, { [key]: value });
  }
  return merged;
}
