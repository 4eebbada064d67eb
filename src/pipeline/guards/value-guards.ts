/**
 * The value guards on a plan: every planned upsert or patch is compared, field by field, with the
 * payload Ferry last delivered for its key (the payload history), in batches as the plan goes, so
 * what is held is counts and a few samples, never the plan. Entities without a kept payload (new,
 * or delivered before Ferry kept payloads) have nothing to compare and are not counted.
 */
import { createHash } from 'node:crypto';
import { canonicalJson, ExactNumber } from '../../base/index.js';
import type { KeptPayload, PayloadHistory, StateStore } from '../../state/index.js';
import type { DeliveryItem } from '../types.js';
import {
  GUARD_SAMPLE,
  type GuardName,
  type GuardReport,
  type GuardResult,
  type GuardSample,
} from './guard-report.js';
import type { GuardsConfig } from './guard-schema.js';

const CHECK_BATCH = 1_000;
const NUMBER = /^-?\d+(\.\d+)?$/;

interface Watched {
  resource: string;
  key: string;
  /** Per watched path: its new value, or `unchanged` when a patch leaves it out. */
  values: Map<string, { value: unknown } | 'unchanged'>;
}

/** One guard on one field of one resource, as it is counted. */
interface Tally {
  result: GuardResult;
  /** Keys counted: an entity counts once. */
  counted: Set<string>;
}

/** A resource and the top-level fields its entities' payloads have (the pipeline's mapping). */
export interface GuardedResource {
  resource: string;
  fields: readonly string[];
}

/**
 * The resources a field belongs to: those whose mapping writes its first part (`prices` of
 * `prices.0.amount`); a field no mapping names (a transform's) is measured over every resource.
 */
function resourcesOf(field: string, resources: readonly GuardedResource[]): string[] {
  const top = field.split('.')[0]!;
  const owning = resources.filter((r) => r.fields.includes(top)).map((r) => r.resource);
  return [...new Set(owning.length > 0 ? owning : resources.map((r) => r.resource))];
}

function valueAt(payload: unknown, path: readonly string[]): unknown {
  let value = payload;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

function numeric(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (value instanceof ExactNumber) return Number(value.digits); // a ratio: a double will do
  if (typeof value === 'string' && NUMBER.test(value)) return Number(value);
  return undefined;
}

/**
 * Whether `to` is more than `factor` times `from`, or less than its 1/factor (a ratio, not money).
 * A positive value that drops to 0 has moved beyond any factor: the platform takes a price of 0
 * and sells for nothing. Below 0, or from 0 or below, no ratio says anything: a negative price is
 * for the platform's validation to refuse (a dead letter), so it is not compared.
 */
function movedBeyond(from: unknown, to: unknown, factor: number): boolean {
  const a = numeric(from);
  const b = numeric(to);
  if (a === undefined || b === undefined || a <= 0 || b < 0) return false;
  if (b === 0) return true;
  const ratio = b / a;
  return ratio > factor || ratio < 1 / factor;
}

export class GuardWatcher {
  private readonly paths = new Map<string, string[]>();
  /** Per resource, the guards measured over its entities. */
  private readonly tallies = new Map<string, Tally[]>();
  private readonly rows: GuardResult | undefined;
  private readonly pending = new Map<string, Watched[]>();
  /** Resources whose history was looked for, and those that had none: nothing to compare. */
  private readonly looked = new Set<string>();
  private readonly nothingKept = new Set<string>();
  private readonly digest = createHash('sha256');
  private checks: Promise<void> = Promise.resolve();

  constructor(
    guards: GuardsConfig,
    private readonly pipeline: string,
    private readonly history: PayloadHistory,
    private readonly store: StateStore,
    resources: readonly GuardedResource[],
  ) {
    const tally = (guard: GuardName, limit: number, field: string): void => {
      this.paths.set(field, field.split('.'));
      for (const resource of resourcesOf(field, resources)) {
        const result: GuardResult = {
          guard,
          field,
          resource,
          tripped: false,
          count: 0,
          of: 0,
          limit,
          samples: [],
        };
        const list = this.tallies.get(resource) ?? [];
        list.push({ result, counted: new Set() });
        this.tallies.set(resource, list);
      }
    };
    if (guards.changedShare)
      tally('changedShare', guards.changedShare.max, guards.changedShare.field);
    if (guards.valueChange) {
      tally('valueChange', guards.valueChange.maxFactor, guards.valueChange.field);
    }
    for (const field of guards.emptied?.fields ?? []) tally('emptied', guards.emptied!.max, field);
    if (guards.rows) {
      const limit = guards.rows.minShareOfLast;
      this.rows = {
        guard: 'rows',
        field: null,
        resource: null,
        tripped: false,
        count: 0,
        of: 0,
        limit,
        samples: [],
      };
    }
  }

  /** Sees a planned item (from the plan's emit, synchronously). */
  observe(item: DeliveryItem): void {
    this.digest.update(`${item.resource}\n${item.key}\n${item.kind}\n${item.hash}\n`);
    const tallies = this.tallies.get(item.resource);
    if (item.kind === 'delete' || !tallies) return;
    // Its resource was counted with its first batch; nothing is kept to compare with.
    if (this.nothingKept.has(item.resource)) return;
    const payload = item.payload as Record<string, unknown>;
    const values: Watched['values'] = new Map();
    let any = false;
    for (const { result } of tallies) {
      const field = result.field!;
      const path = this.paths.get(field)!;
      if (item.kind === 'patch' && !(path[0]! in payload)) values.set(field, 'unchanged');
      else {
        values.set(field, { value: valueAt(payload, path) });
        any = true;
      }
    }
    if (!any) return;
    let list = this.pending.get(item.resource);
    if (!list) this.pending.set(item.resource, (list = []));
    list.push({ resource: item.resource, key: item.key, values });
    if (list.length >= CHECK_BATCH) this.schedule(item.resource);
  }

  private schedule(resource: string): void {
    const batch = this.pending.get(resource) ?? [];
    this.pending.delete(resource);
    if (batch.length === 0) return;
    this.checks = this.checks.then(() => this.check(batch));
  }

  private found(tally: Tally, s: GuardSample): void {
    if (tally.counted.has(s.key)) return;
    tally.counted.add(s.key);
    tally.result.count += 1;
    if (tally.result.samples.length < GUARD_SAMPLE) tally.result.samples.push(s);
  }

  private async check(batch: readonly Watched[]): Promise<void> {
    const resource = batch[0]!.resource;
    if (!this.looked.has(resource)) {
      // A first night keeps no payload: one EXISTS instead of reading every planned key. Nothing
      // writes this pipeline's history while it plans a run (the run lock), so it stays so.
      this.looked.add(resource);
      if (!(await this.history.anyKept(this.pipeline, resource))) this.nothingKept.add(resource);
    }
    if (this.nothingKept.has(resource)) return;
    const kept = await this.history.lastDelivered(
      this.pipeline,
      resource,
      batch.map((w) => w.key),
    );
    batch.forEach((w, i) => this.compare(w, kept[i]));
  }

  private compare(w: Watched, kept: KeptPayload | undefined): void {
    if (kept?.payload === undefined) return;
    for (const tally of this.tallies.get(w.resource) ?? []) {
      const { guard, field, limit } = tally.result;
      const now = w.values.get(field!);
      if (now === undefined || now === 'unchanged') continue;
      const old = valueAt(kept.payload, this.paths.get(field!)!);
      const hit =
        guard === 'changedShare'
          ? canonicalJson(old) !== canonicalJson(now.value)
          : guard === 'valueChange'
            ? movedBeyond(old, now.value, limit)
            : isEmpty(now.value) && !isEmpty(old);
      if (hit)
        this.found(tally, { resource: w.resource, key: w.key, field: field!, old, new: now.value });
    }
  }

  /**
   * Once the plan is complete: the guards' verdicts, each over the live entities in state of its
   * own resource. `lastRows`: the last sync run's rows.
   */
  async finish(rows: number, lastRows: number | undefined): Promise<GuardReport> {
    for (const resource of [...this.pending.keys()]) this.schedule(resource);
    await this.checks;
    const results: GuardResult[] = [];
    for (const [resource, tallies] of this.tallies) {
      const inState = await this.store.count(this.pipeline, resource);
      for (const { result: r } of tallies) {
        r.of = inState;
        r.tripped = r.guard === 'valueChange' ? r.count > 0 : r.count > r.limit * inState;
        results.push(r);
      }
    }
    const order: GuardName[] = ['changedShare', 'valueChange', 'emptied'];
    results.sort((a, b) => order.indexOf(a.guard) - order.indexOf(b.guard));
    if (this.rows) {
      const r = this.rows;
      r.count = rows;
      r.of = lastRows ?? 0;
      r.tripped = lastRows !== undefined && rows < r.limit * lastRows;
      results.push(r);
    }
    return {
      tripped: results.some((r) => r.tripped),
      results,
      planDigest: this.digest.digest('base64url'),
    };
  }
}
