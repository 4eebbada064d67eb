/**
 * A pipeline's `schedule: {cron, tz}` (DESIGN.md, Schedules). The cron is checked with the parser
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

export const scheduleSchema = z.strictObject({
  cron: z.string().refine(isCron, {
    message:
      'expected a cron pattern of 5 fields (minute hour day month weekday) or 6 with seconds first, e.g. "0 2 * * *"',
  }),
  tz: z
    .string()
    .refine(isTimeZone, { message: 'expected an IANA time zone, e.g. "Europe/Berlin" or "UTC"' })
    .default('UTC'),
});

export type Schedule = z.infer<typeof scheduleSchema>;
