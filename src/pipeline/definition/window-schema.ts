/**
 * A pipeline's delivery window, `window: {endsAt: "HH:MM", tz}` (docs/PIPELINES.md): a run whose
 * forecast ends after it tells the `late` webhooks, once. The end that counts for a run is the
 * first HH:MM in tz after the run started (a run started at 23:00 against "06:00" has until
 * 06:00 the next morning).
 */
import { getNextMillis } from 'bullmq';
import { z } from 'zod';
import { timeZoneSchema } from './schedule-schema.js';

export const windowSchema = z.strictObject({
  endsAt: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, {
    message: 'expected a time of day as HH:MM (24 hours), e.g. "06:00"',
  }),
  tz: timeZoneSchema,
});

export type DeliveryWindow = z.infer<typeof windowSchema>;

/** The window's end for a run started at `startedAt` (epoch ms): the first HH:MM in tz after. */
export function windowEnd(window: DeliveryWindow, startedAt: number): number {
  const [hours, minutes] = window.endsAt.split(':').map(Number);
  // The cron parser the schedules use knows the time zone's DST changes.
  const end = getNextMillis(startedAt, { pattern: `${minutes} ${hours} * * *`, tz: window.tz });
  if (end === undefined) throw new Error(`no next ${window.endsAt} in ${window.tz}`);
  return end;
}
