/**
 * The installation's figures in Prometheus form (docs/CONSOLE.md, Metrics): read from Redis
 * at each scrape, so they are every worker's, and survive a restart of `ferry serve`. Counters
 * come from the metrics hash the workers add to (runs/metrics/metric-fields.ts); gauges from the
 * queues, runs and dead letters as they stand.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import { pipelineNames } from '../pipeline/index.js';
import {
  readDataLoss,
  DURATION_BUCKETS,
  RATE_LIMITED_FIELD,
  SEP,
  parseRun,
  pendingContract,
} from '../runs/index.js';
import { readRateLimit } from '../queue/index.js';
import { readLastReconciliations } from '../reconcile/index.js';
import { readQueues } from './routes/api-queues.js';
import type { ServeContext } from './serve-context.js';

type Fields = Map<string, string[]>;

/** The metrics hash's fields by metric: `items|a|b|c` -> items: [[a, b, c, value]]. */
async function readFields(ctx: ServeContext): Promise<Map<string, string[][]>> {
  const byMetric = new Map<string, string[][]>();
  for (const [field, value] of Object.entries(await ctx.redis.hgetall(ctx.keys.metrics))) {
    const [metric, ...labels] = field.split(SEP);
    const rows = byMetric.get(metric!) ?? [];
    rows.push([...labels, value]);
    byMetric.set(metric!, rows);
  }
  return byMetric;
}

/** ferry_request_duration_seconds, written out by hand: its buckets are counted by the workers. */
function durationHistogram(fields: Map<string, string[][]>): string {
  const name = 'ferry_request_duration_seconds';
  const lines = [
    `# HELP ${name} Time from sending a request to the interface to its answer, by operation.`,
    `# TYPE ${name} histogram`,
  ];
  const buckets: Fields = new Map();
  for (const [operation, le, value] of fields.get('durationBucket') ?? []) {
    const row = buckets.get(operation!) ?? DURATION_BUCKETS.map(() => '0');
    row[DURATION_BUCKETS.indexOf(Number(le))] = value!;
    buckets.set(operation!, row);
  }
  const sums = new Map((fields.get('durationSum') ?? []).map(([op, v]) => [op!, v!]));
  for (const [operation, count] of fields.get('durationCount') ?? []) {
    const row = buckets.get(operation!) ?? DURATION_BUCKETS.map(() => '0');
    DURATION_BUCKETS.forEach((le, i) => {
      lines.push(`${name}_bucket{operation="${operation}",le="${le}"} ${row[i]}`);
    });
    lines.push(`${name}_bucket{operation="${operation}",le="+Inf"} ${count}`);
    lines.push(`${name}_sum{operation="${operation}"} ${sums.get(operation!) ?? 0}`);
    lines.push(`${name}_count{operation="${operation}"} ${count}`);
  }
  return `${lines.join('\n')}\n`;
}

export interface InstallationMetrics {
  /** The text a scrape gets. */
  text(): Promise<string>;
  readonly contentType: string;
}

export function installationMetrics(ctx: ServeContext): InstallationMetrics {
  const registry = new Registry();
  let fields = new Map<string, string[][]>();
  const counter = (
    name: string,
    help: string,
    labelNames: string[],
    rows: () => string[][],
  ): Counter<string> =>
    new Counter({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        for (const row of rows()) {
          const labels = Object.fromEntries(labelNames.map((l, i) => [l, row[i]!]));
          this.inc(labels, Number(row[labelNames.length]));
        }
      },
    });
  counter(
    'ferry_items_total',
    'Items settled by the workers, by pipeline, operation and outcome.',
    ['pipeline', 'operation', 'outcome'],
    () =>
      (fields.get('items') ?? []).flatMap((r) =>
        // Every failed item is dead-lettered: the contract names both.
        r[2] === 'failed' ? [r, [r[0]!, r[1]!, 'dead_lettered', r[3]!]] : [r],
      ),
  );
  counter(
    'ferry_requests_total',
    'Requests sent to the interface, by operation and answer status (error: no answer).',
    ['operation', 'status'],
    () => fields.get('requests') ?? [],
  );
  counter('ferry_rate_limited_total', 'Answers 429 (rate limited) from the interface.', [], () =>
    (fields.get(RATE_LIMITED_FIELD) ?? []).map((r) => [r[0]!]),
  );
  counter(
    'ferry_runs_total',
    'Runs that ended (or ticks that were skipped), by pipeline, status and kind (sync, replay, undo, export, repair).',
    ['pipeline', 'status', 'kind'],
    // Counted before runs had a kind in the field: sync runs.
    () =>
      (fields.get('runs') ?? []).map((r) => (r.length === 3 ? [r[0]!, r[1]!, 'sync', r[2]!] : r)),
  );
  new Gauge({
    name: 'ferry_run_last_success_timestamp_seconds',
    help: 'When the last sync run of the pipeline that settled every planned item ended (Unix seconds); replays, undos and repairs never set it.',
    labelNames: ['pipeline'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [pipeline, at] of fields.get('lastSuccess') ?? []) {
        this.set({ pipeline: pipeline! }, Number(at) / 1000);
      }
    },
  });
  new Gauge({
    name: 'ferry_delivery_blocked',
    help: "1 while the pipeline's delivery is blocked because the platform refuses every request, by reason.",
    labelNames: ['pipeline', 'reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [pipeline, reason, value] of fields.get('blocked') ?? []) {
        this.set({ pipeline: pipeline!, reason: reason! }, Number(value));
      }
    },
  });
  new Gauge({
    name: 'ferry_rate_limit_per_second',
    help: 'Requests per second delivery keeps to, by where the figure comes from (configured, headers: the platform says it, discovered: found from its 429s).',
    labelNames: ['source'],
    registers: [registry],
    async collect() {
      this.reset();
      const limit = await readRateLimit(ctx.redis, ctx.keys, ctx.config.delivery);
      if (limit) this.set({ source: limit.source }, limit.perSecond);
    },
  });
  new Gauge({
    name: 'ferry_run_active',
    help: '1 while the pipeline has a run in progress, else 0.',
    labelNames: ['pipeline'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const name of pipelineNames(ctx.config)) this.set({ pipeline: name }, 0);
      for (const id of await ctx.redis.smembers(ctx.keys.activeRuns)) {
        const run = parseRun(await ctx.redis.hgetall(ctx.keys.run(id)));
        if (run) this.set({ pipeline: run.pipeline }, 1);
      }
    },
  });
  new Gauge({
    name: 'ferry_queue_jobs',
    help: 'Jobs in each queue, by state.',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of await readQueues(ctx)) {
        for (const [state, n] of Object.entries(q.counts)) this.set({ queue: q.queue, state }, n);
      }
    },
  });
  new Gauge({
    name: 'ferry_dead_letters',
    help: 'Dead letters waiting for an operator, by pipeline.',
    labelNames: ['pipeline'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const name of pipelineNames(ctx.config)) {
        this.set({ pipeline: name }, await ctx.dlq.count({ pipeline: name }));
      }
    },
  });
  new Gauge({
    name: 'ferry_drift_entities',
    help: "Entities the pipeline's last reconciliation found drifted, by kind (missing on the platform, different, unknown to Ferry).",
    labelNames: ['pipeline', 'kind'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const last of await readLastReconciliations(ctx.redis, ctx.config.redis.prefix)) {
        for (const kind of ['missing', 'different', 'unknown'] as const) {
          this.set({ pipeline: last.pipeline, kind }, last[kind]);
        }
      }
    },
  });
  new Gauge({
    name: 'ferry_contract_changes',
    help: "Changes of the platform's description to the pinned one not accepted yet, by kind (breaking, non_breaking); 0 without a pin or a change.",
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      this.reset();
      const pending = await pendingContract(ctx.redis, ctx.keys);
      this.set({ kind: 'breaking' }, pending?.breaking ?? 0);
      this.set({ kind: 'non_breaking' }, pending?.nonBreaking ?? 0);
    },
  });
  new Counter({
    name: 'ferry_redis_data_loss_total',
    help: 'Times Redis lost its data (restarted empty, flushed) as a Ferry process noticed it.',
    registers: [registry],
    async collect() {
      this.reset();
      this.inc((await readDataLoss(ctx.redis, ctx.keys))?.count ?? 0);
    },
  });

  return {
    contentType: registry.contentType,
    async text() {
      fields = await readFields(ctx);
      return (await registry.metrics()) + durationHistogram(fields);
    },
  };
}
