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

interface Tally {
  result: GuardResult;
  /** Keys counted (an entity counts once even when several of its fields are emptied). */
  counted: Set<string> | undefined;
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
  private readonly tallies: Partial<Record<GuardName, Tally>> = {};
  private readonly pending = new Map<string, Watched[]>();
  private readonly resources = new Set<string>();
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
  ) {
    const fields = new Set<string>();
    const tally = (guard: GuardName, limit: number, watched?: string[], perKey = false): void => {
      const result: GuardResult = { guard, tripped: false, count: 0, of: 0, limit, samples: [] };
      if (watched) result.fields = watched;
      this.tallies[guard] = { result, counted: perKey ? new Set() : undefined };
      for (const f of watched ?? []) fields.add(f);
    };
    if (guards.changedShare)
      tally('changedShare', guards.changedShare.max, [guards.changedShare.field]);
    if (guards.valueChange) {
      tally('valueChange', guards.valueChange.maxFactor, [guards.valueChange.field]);
    }
    if (guards.emptied) tally('emptied', guards.emptied.max, guards.emptied.fields, true);
    if (guards.rows) tally('rows', guards.rows.minShareOfLast);
    for (const f of fields) this.paths.set(f, f.split('.'));
  }

  /** Sees a planned item (from the plan's emit, synchronously). */
  observe(item: DeliveryItem): void {
    this.digest.update(`${item.resource}\n${item.key}\n${item.kind}\n${item.hash}\n`);
    if (item.kind === 'delete' || this.paths.size === 0) return;
    // Its resource was counted with its first batch; nothing is kept to compare with.
    if (this.nothingKept.has(item.resource)) return;
    const payload = item.payload as Record<string, unknown>;
    const values: Watched['values'] = new Map();
    let any = false;
    for (const [field, path] of this.paths) {
      if (item.kind === 'patch' && !(path[0]! in payload)) values.set(field, 'unchanged');
      else {
        values.set(field, { value: valueAt(payload, path) });
        any = true;
      }
    }
    if (!any) return;
    this.resources.add(item.resource);
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

  private sample(tally: Tally, s: GuardSample): void {
    if (tally.result.samples.length < GUARD_SAMPLE) tally.result.samples.push(s);
  }

  private count(tally: Tally, key: string): void {
    if (tally.counted) {
      if (tally.counted.has(key)) return;
      tally.counted.add(key);
    }
    tally.result.count += 1;
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
    const { changedShare, valueChange, emptied } = this.tallies;
    const oldAt = (field: string) => valueAt(kept.payload, this.paths.get(field)!);
    const at = (field: string) => {
      const v = w.values.get(field);
      return v === undefined || v === 'unchanged' ? undefined : v;
    };
    const sample = (field: string, now: { value: unknown }): GuardSample => ({
      resource: w.resource,
      key: w.key,
      field,
      old: oldAt(field),
      new: now.value,
    });
    if (changedShare) {
      const field = changedShare.result.fields![0]!;
      const now = at(field);
      if (now && canonicalJson(oldAt(field)) !== canonicalJson(now.value)) {
        this.count(changedShare, w.key);
        this.sample(changedShare, sample(field, now));
      }
    }
    if (valueChange) {
      const field = valueChange.result.fields![0]!;
      const now = at(field);
      if (now && movedBeyond(oldAt(field), now.value, valueChange.result.limit)) {
        this.count(valueChange, w.key);
        this.sample(valueChange, sample(field, now));
      }
    }
    if (emptied) {
      for (const field of emptied.result.fields!) {
        const now = at(field);
        if (now && isEmpty(now.value) && !isEmpty(oldAt(field))) {
          this.count(emptied, `${w.resource}\n${w.key}`);
          this.sample(emptied, sample(field, now));
        }
      }
    }
  }

  /** Once the plan is complete: the guards' verdicts. `lastRows`: the last sync run's rows. */
  async finish(rows: number, lastRows: number | undefined): Promise<GuardReport> {
    for (const resource of [...this.pending.keys()]) this.schedule(resource);
    await this.checks;
    let inState = 0;
    for (const resource of this.resources)
      inState += await this.store.count(this.pipeline, resource);
    const results: GuardResult[] = [];
    for (const tally of Object.values(this.tallies)) {
      const r = tally.result;
      if (r.guard === 'rows') {
        r.count = rows;
        r.of = lastRows ?? 0;
        r.tripped = lastRows !== undefined && rows < r.limit * lastRows;
      } else if (r.guard === 'valueChange') {
        r.of = inState;
        r.tripped = r.count > 0;
      } else {
        r.of = inState;
        r.tripped = r.count > r.limit * inState;
      }
      results.push(r);
    }
    return {
      tripped: results.some((r) => r.tripped),
      results,
      planDigest: this.digest.digest('base64url'),
    };
  }
}
