/**
 * What `ferry plan` prints: the JSON document of docs/CLI.md (ferry plan) and a readable
 * summary for a terminal.
 */
import { displayPath } from './display-path.js';
import { guardReason, guardSentence, type GuardResult } from './guards/guard-report.js';
import { rowErrorText } from './row-error-text.js';
import type { DeliveryRequest, Plan } from './types.js';
import { counted, type RowError } from '../base/index.js';

export interface PlanItemView {
  operationId: string;
  pathParams: Record<string, string>;
  payload: unknown;
  key: string;
  kind: string;
}

export interface PlanJson {
  pipeline: string;
  rows: number;
  operations: Plan['operations'];
  deletes: number;
  errors: RowError[];
  unchanged: Record<string, number>;
  version: number;
  /**
   * Every configured guard measured over its field's resource, tripped or not, with samples and
   * a sentence (`reason`) for people; `guardsTripped`: whether one stops the plan.
   */
  guards?: GuardView[];
  guardsTripped?: boolean;
  prices?: Plan['prices'];
}

/** One request's items as `--show-items` lists them. */
export function requestItems(request: DeliveryRequest): PlanItemView[] {
  return request.items.map((item) => ({
    operationId: request.operationId,
    pathParams: request.pathParams,
    payload: item.payload,
    key: item.key,
    kind: item.kind,
  }));
}

/** A guard's result as documents show it (plan, run report): its measure and a sentence. */
export type GuardView = GuardResult & { reason: string };

export function guardViews(results: readonly GuardResult[]): GuardView[] {
  return results.map((r) => ({ ...r, reason: guardSentence(r) }));
}

export function planJson(plan: Plan): PlanJson {
  const json: PlanJson = {
    pipeline: plan.pipeline,
    rows: plan.rows,
    operations: plan.operations,
    deletes: plan.deletes,
    errors: plan.errors.map((e) => ({
      file: e.file,
      line: e.line,
      ...(e.field === undefined ? {} : { field: e.field }),
      ...(e.path === undefined ? {} : { path: e.path }),
      message: e.message,
      ...(e.key === undefined ? {} : { key: e.key }),
    })),
    unchanged: plan.unchanged,
    version: plan.version,
  };
  if (plan.guards) {
    json.guards = guardViews(plan.guards.results);
    json.guardsTripped = plan.guards.tripped;
  }
  if (plan.prices) json.prices = plan.prices;
  return json;
}

export function errorLine(e: RowError): string {
  return `  ${rowErrorText(e, displayPath(e.file))}`;
}

/** Changed prices and the requests per changed price (1 each, far less in product batches). */
export function pricesLine(prices: NonNullable<Plan['prices']>): string {
  const per = (prices.requests / prices.changed).toFixed(3);
  return `prices: ${counted(prices.changed, 'changed price')} in ${counted(prices.requests, 'request')} (${per} per changed price)`;
}

/** A summary for people: operations per stage with counts, then the first rejected records. */
export function planSummary(plan: Plan, source: string, maxErrors = 20): string {
  const lines = [
    `Plan of ${plan.pipeline} from ${source}: ${counted(plan.rows, 'row')}, ` +
      `${counted(plan.errors.length, 'rejected record')}, ${counted(plan.deletes, 'delete')}`,
  ];
  const width = Math.max(0, ...Object.keys(plan.operations).map((id) => id.length));
  for (const stage of plan.stages) {
    for (const id of stage.operationIds) {
      const c = plan.operations[id];
      if (!c) continue;
      lines.push(
        `  stage ${stage.index + 1}  ${id.padEnd(width)}  ${counted(c.items, 'item')} in ${counted(c.requests, 'request')}`,
      );
    }
  }
  if (Object.keys(plan.operations).length === 0) lines.push('  nothing to send: no changes');
  if (plan.prices) lines.push(`  ${pricesLine(plan.prices)}`);
  const unchanged = Object.entries(plan.unchanged);
  if (unchanged.length > 0) {
    lines.push(`  unchanged: ${unchanged.map(([r, n]) => `${r} ${n}`).join(', ')}`);
  }
  for (const r of plan.guards?.results.filter((g) => g.tripped) ?? []) {
    lines.push('', `Stopped by ${guardReason(r)}. For example:`);
    for (const x of r.samples.slice(0, 5)) {
      lines.push(`  ${x.resource} ${x.key}: ${JSON.stringify(x.old)} -> ${JSON.stringify(x.new)}`);
    }
  }
  if (plan.errors.length > 0) {
    lines.push('', `Rejected records (${plan.errors.length}):`);
    lines.push(...plan.errors.slice(0, maxErrors).map(errorLine));
    if (plan.errors.length > maxErrors) {
      lines.push(`  ... and ${plan.errors.length - maxErrors} more (--json lists them all)`);
    }
  }
  return `${lines.join('\n')}\n`;
}
