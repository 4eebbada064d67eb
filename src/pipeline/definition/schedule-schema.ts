/**
 * A pipeline's `schedule: {cron, tz}` (docs/SCHEDULES.md). The cron is checked with the parser
 * BullMQ's job schedulers use, so a pattern accepted here is one they run.
 */
import { getNextMillis } from 'bullmq';
import { z } from 'zod';

function isCron(pattern: string): boolean {
  const fields = pattern.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6) return false;
  try {
    return getNextMillis(Date.now(), { pattern }) !== undefined;
  } catch {
    return false;
  }
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone, default UTC: a schedule's, a delivery window's (window-schema.ts). */
export const timeZoneSchema = z
  .string()
  .refine(isTimeZone, { message: 'expected an IANA time zone, e.g. "Europe/Berlin" or "UTC"' })
  .default('UTC');

/**
 * Picking tonight's export out of a folder source (src/schedules/pickup.ts): which file, once it
 * stopped growing, and where it goes after its run.
 */
export const pickupSchema = z.strictObject({
  /** newest: the newest file (older ones are superseded); all: each, oldest first, a run each. */
  take: z.enum(['newest', 'all']).default('newest'),
  /** Where a file goes after a run that ended; relative to the source folder. */
  archiveFolder: z.string().min(1).default('archive'),
  /** Where a file goes after a run that was refused or cancelled; relative to the source folder. */
  errorFolder: z.string().min(1).default('error'),
  /** A file is taken once unchanged for this long (an export still being written is not). */
  quietSeconds: z.number().int().nonnegative().default(30),
});

export type Pickup = z.infer<typeof pickupSchema>;

export const scheduleSchema = z.strictObject({
  cron: z.string().refine(isCron, {
    message:
      'expected a cron pattern of 5 fields (minute hour day month weekday) or 6 with seconds first, e.g. "0 2 * * *"',
  }),
  tz: timeZoneSchema,
  /** With a folder source: take tonight's export out of the folder, once (see pickupSchema). */
  pickup: pickupSchema.optional(),
});

export type Schedule = z.infer<typeof scheduleSchema>;
