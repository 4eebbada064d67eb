/** What the value guards found on a plan: one result per configured guard (docs/PIPELINES.md, Value guards). */

/** Samples kept per guard. */
export const GUARD_SAMPLE = 20;

export interface GuardSample {
  resource: string;
  key: string;
  field: string;
  /** What Ferry last delivered (undefined: the field was absent). */
  old: unknown;
  /** What tonight's plan would send (undefined: the field would be absent). */
  new: unknown;
}

export type GuardName = 'changedShare' | 'valueChange' | 'emptied' | 'rows';

export interface GuardResult {
  guard: GuardName;
  /** The field(s) it watches; none for `rows`. */
  fields?: string[];
  /** Whether it stops the run. */
  tripped: boolean;
  /** Entities that changed, moved or were emptied; tonight's rows for `rows`. */
  count: number;
  /** Live entities in state it was measured against; the last run's rows for `rows`. */
  of: number;
  /** The configured limit: max, maxFactor or minShareOfLast. */
  limit: number;
  samples: GuardSample[];
}

export interface GuardReport {
  /** Whether a guard stops the plan. */
  tripped: boolean;
  results: GuardResult[];
  /** A digest of everything the plan would send: what an allow-once is bound to. */
  planDigest: string;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
}

/** One sentence naming a tripped guard and its counts. */
export function guardReason(r: GuardResult): string {
  const field = r.fields?.join(', ') ?? '';
  switch (r.guard) {
    case 'changedShare':
      return (
        `guards.changedShare: ${field} would change for ${r.count} of the ${r.of} entities in ` +
        `state (${percent(r.of > 0 ? r.count / r.of : 1)}), more than the limit of ${percent(r.limit)}`
      );
    case 'emptied':
      return (
        `guards.emptied: ${field} would become empty for ${r.count} of the ${r.of} entities in ` +
        `state (${percent(r.of > 0 ? r.count / r.of : 1)}), more than the limit of ${percent(r.limit)}`
      );
    case 'valueChange':
      return `guards.valueChange: ${field} would move by more than a factor of ${r.limit} for ${r.count} entities`;
    case 'rows':
      return (
        `guards.rows: the export has ${r.count} rows, fewer than ${percent(r.limit)} of the ` +
        `last run's ${r.of}`
      );
  }
}
