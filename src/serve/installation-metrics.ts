/**
 * The installation's figures in Prometheus form (docs/CONSOLE.md, Metrics): read from Redis
 * at each scrape, so they are every worker's, and survive a restart of `ferry serve`. Counters
 * come from the metrics hash the workers add to (runs/metrics/metric-fields.ts); gauges from the
 * queues, runs and dead letters as they stand. Every run and delivery figure has a `platform`
 * label (`default` for the top-level interface) beside `pipeline`, the pipeline's file name: a
 * run of `catalog@north` counts as pipeline catalog, platform north.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import {
  DEFAULT_PLATFORM,
  platformConfig,
  platformNames,
  splitPipelineName,
} from '../config/index.js';
import { allPipelineTargets } from '../pipeline/index.js';
import {
  readDataLoss,
  DURATION_BUCKETS,
  RATE_LIMITED_FIELD,
  SEP,
  parseRun,
  pendingContract,
  platformKeys,
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

/** `catalog@north` -> [catalog, north]: a pipeline's labels. */
function pipelineLabels(qualified: string): [string, string] {
  const { pipeline, platform } = splitPipelineName(qualified);
  return [pipeline, platform];
}

/** Rows of `n` labels and a value; a row one label short predates platforms: the default's. */
function withPlatform(rows: string[][], n: number): string[][] {
  return rows.map((r) =>
    r.length === n ? [...r.slice(0, -1), DEFAULT_PLATFORM, r[r.length - 1]!] : r,
  );
}

/** Rows whose first label is a pipeline's qualified name -> its pipeline and platform labels. */
function splitFirst(rows: string[][]): string[][] {
  return rows.map(([qualified, ...rest]) => [...pipelineLabels(qualified!), ...rest]);
}

/** ferry_request_duration_seconds, written out by hand: its buckets are counted by the workers. */
function durationHistogram(fields: Map<string, string[][]>): string {
  const name = 'ferry_request_duration_seconds';
  const lines = [
    `# HELP ${name} Time from sending a request to the interface to its answer, by platform and operation.`,
    `# TYPE ${name} histogram`,
  ];
  // Rows keyed by platform and operation: `<platform>|<operation>`.
  const buckets: Fields = new Map();
  for (const [operation, le, platform, value] of withPlatform(
    fields.get('durationBucket') ?? [],
    3,
  )) {
    const key = [platform, operation].join(SEP);
    const row = buckets.get(key) ?? DURATION_BUCKETS.map(() => '0');
    row[DURATION_BUCKETS.indexOf(Number(le))] = value!;
    buckets.set(key, row);
  }
  const sums = new Map(
    withPlatform(fields.get('durationSum') ?? [], 2).map(([op, platform, v]) => [
      [platform, op].join(SEP),
      v!,
    ]),
  );
  for (const [operation, platform, count] of withPlatform(fields.get('durationCount') ?? [], 2)) {
    const key = [platform, operation].join(SEP);
    const labels = `platform="${platform}",operation="${operation}"`;
    const row = buckets.get(key) ?? DURATION_BUCKETS.map(() => '0');
    DURATION_BUCKETS.forEach((le, i) => {
      lines.push(`${name}_bucket{${labels},le="${le}"} ${row[i]}`);
    });
    lines.push(`${name}_bucket{${labels},le="+Inf"} ${count}`);
    lines.push(`${name}_sum{${labels}} ${sums.get(key) ?? 0}`);
    lines.push(`${name}_count{${labels}} ${count}`);
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
    'Items settled by the workers, by pipeline, platform, operation and outcome.',
    ['pipeline', 'platform', 'operation', 'outcome'],
    () =>
      splitFirst(fields.get('items') ?? []).flatMap((r) =>
        // Every failed item is dead-lettered: the contract names both.
        r[3] === 'failed' ? [r, [r[0]!, r[1]!, r[2]!, 'dead_lettered', r[4]!]] : [r],
      ),
  );
  counter(
    'ferry_requests_total',
    'Requests sent to the interface, by platform, operation and answer status (error: no answer).',
    ['platform', 'operation', 'status'],
    () =>
      withPlatform(fields.get('requests') ?? [], 3).map(([op, status, platform, v]) => [
        platform!,
        op!,
        status!,
        v!,
      ]),
  );
  counter(
    'ferry_rate_limited_total',
    'Answers 429 (rate limited) from the interface, by platform.',
    ['platform'],
    () => withPlatform(fields.get(RATE_LIMITED_FIELD) ?? [], 1),
  );
  counter(
    'ferry_runs_total',
    'Runs that ended (or ticks that were skipped), by pipeline, platform, status and kind (sync, replay, undo, export, repair).',
    ['pipeline', 'platform', 'status', 'kind'],
    // Counted before runs had a kind in the field: sync runs.
    () =>
      splitFirst(
        (fields.get('runs') ?? []).map((r) => (r.length === 3 ? [r[0]!, r[1]!, 'sync', r[2]!] : r)),
      ),
  );
  new Gauge({
    name: 'ferry_run_last_success_timestamp_seconds',
    help: 'When the last sync run of the pipeline on the platform that settled every planned item ended (Unix seconds); replays, undos and repairs never set it.',
    labelNames: ['pipeline', 'platform'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [qualified, at] of fields.get('lastSuccess') ?? []) {
        const [pipeline, platform] = pipelineLabels(qualified!);
        this.set({ pipeline, platform }, Number(at) / 1000);
      }
    },
  });
  new Gauge({
    name: 'ferry_delivery_blocked',
    help: "1 while the pipeline's delivery to the platform is blocked because the platform refuses every request, by reason.",
    labelNames: ['pipeline', 'platform', 'reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [qualified, reason, value] of fields.get('blocked') ?? []) {
        const [pipeline, platform] = pipelineLabels(qualified!);
        this.set({ pipeline, platform, reason: reason! }, Number(value));
      }
    },
  });
  new Gauge({
    name: 'ferry_rate_limit_per_second',
    help: 'Requests per second delivery keeps to on each platform, by where the figure comes from (configured, headers: the platform says it, discovered: found from its 429s).',
    labelNames: ['platform', 'source'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const platform of platformNames(ctx.config)) {
        const { delivery } = platformConfig(ctx.config, platform);
        const limit = await readRateLimit(ctx.redis, platformKeys(ctx.keys, platform), delivery);
        if (limit) this.set({ platform, source: limit.source }, limit.perSecond);
      }
    },
  });
  new Gauge({
    name: 'ferry_run_active',
    help: '1 while the pipeline has a run in progress on the platform, else 0.',
    labelNames: ['pipeline', 'platform'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const name of allPipelineTargets(ctx.config)) {
        const [pipeline, platform] = pipelineLabels(name);
        this.set({ pipeline, platform }, 0);
      }
      for (const id of await ctx.redis.smembers(ctx.keys.activeRuns)) {
        const run = parseRun(await ctx.redis.hgetall(ctx.keys.run(id)));
        if (!run) continue;
        const [pipeline, platform] = pipelineLabels(run.pipeline);
        this.set({ pipeline, platform }, 1);
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
    help: 'Dead letters waiting for an operator, by pipeline and platform.',
    labelNames: ['pipeline', 'platform'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const name of allPipelineTargets(ctx.config)) {
        const [pipeline, platform] = pipelineLabels(name);
        this.set({ pipeline, platform }, await ctx.dlq.count({ pipeline: name }));
      }
    },
  });
  new Gauge({
    name: 'ferry_drift_entities',
    help: "Entities the pipeline's last reconciliation with the platform found drifted, by kind (missing on the platform, different, unknown to Ferry).",
    labelNames: ['pipeline', 'platform', 'kind'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const last of await readLastReconciliations(ctx.redis, ctx.config.redis.prefix)) {
        const [pipeline, platform] = pipelineLabels(last.pipeline);
        for (const kind of ['missing', 'different', 'unknown'] as const) {
          this.set({ pipeline, platform, kind }, last[kind]);
        }
      }
    },
  });
  new Gauge({
    name: 'ferry_contract_changes',
    help: "Changes of the platform's description to the pinned one not accepted yet, by platform and kind (breaking, non_breaking); 0 without a pin or a change.",
    labelNames: ['platform', 'kind'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const platform of platformNames(ctx.config)) {
        const pending = await pendingContract(ctx.redis, platformKeys(ctx.keys, platform));
        this.set({ platform, kind: 'breaking' }, pending?.breaking ?? 0);
        this.set({ platform, kind: 'non_breaking' }, pending?.nonBreaking ?? 0);
      }
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
