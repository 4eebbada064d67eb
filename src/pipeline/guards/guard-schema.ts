/**
 * A pipeline's value guards (docs/PIPELINES.md, Value guards): checked on the plan, against what
 * Ferry last delivered, before anything is sent. Each is optional; a field is a dotted path into
 * the payload (`prices.0.amount`: the first price's amount).
 */
import { z } from 'zod';

const share = z.number().min(0).max(1);
const fieldPath = z
  .string()
  .regex(/^[^.\s]+(\.[^.\s]+)*$/, 'expected a dotted path, e.g. prices.0.amount');

export const guardsSchema = z
  .strictObject({
    /** Largest share of the entities in state whose field may change in one run. */
    changedShare: z.strictObject({ field: fieldPath, max: share }).optional(),
    /** An entity whose numeric field moves by more than this factor, up or down, stops the run. */
    valueChange: z.strictObject({ field: fieldPath, maxFactor: z.number().gt(1) }).optional(),
    /** Largest share of the entities in state whose fields may become empty in one run. */
    emptied: z.strictObject({ fields: z.array(fieldPath).min(1), max: share }).optional(),
    /** Tonight's rows against the last sync run's: fewer than this share stops the run. */
    rows: z.strictObject({ minShareOfLast: share }).optional(),
  })
  .optional();

export type GuardsConfig = NonNullable<z.infer<typeof guardsSchema>>;
