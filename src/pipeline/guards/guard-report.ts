/** What the value guards found on a plan: one result per configured guard and field (docs/PIPELINES.md, Value guards). */

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

/**
 * One guard measured on one field over the entities of the resource that field belongs to (an
 * `emptied` with two fields gives two results); `rows` has no field and no resource (null).
 */
export interface GuardResult {
  guard: GuardName;
  /** The field it watches (a dotted path); null for `rows`. */
  field: string | null;
  /** The resource whose entities it is measured over; null for `rows`. */
  resource: string | null;
  /** Whether it stops the run. */
  tripped: boolean;
  /** Entities that changed, moved or were emptied; tonight's rows for `rows`. */
  count: number;
  /** Live entities of `resource` in state it was measured against; the last run's rows for `rows`. */
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

/** A result as recorded before guards were measured per resource (`fields`, one result per guard). */
interface OlderResult extends Omit<GuardResult, 'field' | 'resource'> {
  fields?: string[];
}

/** A report as recorded, older ones included (their results had `fields` and no resource). */
export function parseGuardReport(json: string): GuardReport {
  const report = JSON.parse(json) as GuardReport;
  report.results = report.results.map((r) => {
    if ('resource' in r) return r;
    const { fields, ...rest } = r as OlderResult;
    return { ...rest, field: fields?.join(', ') ?? null, resource: null };
  });
  return report;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
}

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** `3,000 prices`, `1 product`: a count of a resource's entities (resources are plural names). */
function entities(n: number, resource: string | null): string {
  if (!resource) return plural(n, 'entity', 'entities');
  return n === 1 ? `1 ${resource.replace(/s$/, '')}` : `${n.toLocaleString('en-US')} ${resource}`;
}

/**
 * One sentence for people naming a guard's measure, tripped or not: `The price (prices.0.amount)
 * would move more than 10 times up or down for 3,000 of 3,000 prices: stops the run.`
 */
export function guardSentence(r: GuardResult): string {
  const field = r.field ?? '';
  const share = r.of > 0 ? ` (${percent(r.count / r.of)})` : '';
  const verdict = r.tripped ? 'stops the run' : 'within the limit';
  switch (r.guard) {
    case 'changedShare':
      return (
        `${field} would change for ${r.count.toLocaleString('en-US')} of ${entities(r.of, r.resource)}` +
        `${share}; at most ${percent(r.limit)} may: ${verdict}.`
      );
    case 'emptied':
      return (
        `${field} would become empty for ${r.count.toLocaleString('en-US')} of ${entities(r.of, r.resource)}` +
        `${share}; at most ${percent(r.limit)} may: ${verdict}.`
      );
    case 'valueChange':
      return (
        `${field} would move more than ${r.limit} times up or down for ` +
        `${r.count.toLocaleString('en-US')} of ${entities(r.of, r.resource)}; none may: ${verdict}.`
      );
    case 'rows':
      return (
        `The export has ${plural(r.count, 'row')} against ${plural(r.of, 'row')} in the last run; ` +
        `at least ${percent(r.limit)} of it must be there: ${verdict}.`
      );
  }
}

/** One clause naming a tripped guard and its counts, for an error message (config words kept). */
export function guardReason(r: GuardResult): string {
  return `guards.${r.guard}: ${guardSentence(r).replace(/: stops the run\.$/, '')}`;
}
