/**
 * `ferry undo RUN` and the console's undo: plans the inverse of a finished run from its
 * before-images (src/pipeline/undo) and, unless a dry run, starts it as a run of its own
 * through the queue (its record says `undoOf`; asking for it is the approval, so the value guards
 * do not stop it). An undo is a run like the others: it can be undone in turn.
 */
import type { FerryConfig } from '../config/index.js';
import { FerryError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import { loadPipeline, planUndo, type Plan, type UndoSkip } from '../pipeline/index.js';
import type { RedisClient } from '../redis/index.js';
import {
  pipelineConfig,
  deliveryKeys,
  isFinished,
  NotFoundError,
  parseRun,
  type Trigger,
} from '../runs/index.js';
import { startRun } from './start-run.js';

/** A run that cannot be undone: still going, an export, or without before-images. Exit code 2. */
export class UndoError extends FerryError<'FERRY_UNDO'> {
  readonly code = 'FERRY_UNDO';
  override readonly exitCode = 2;
}

export interface UndoOptions {
  config: FerryConfig;
  redis: RedisClient;
  logger: Logger;
  runId: string;
  dryRun?: boolean;
  force?: boolean;
  trigger?: Trigger;
  startedBy?: string;
}

/** What `ferry undo --json` answers (docs/DELIVERY.md, Undo). */
export interface UndoResult {
  runId: string;
  undoRunId?: string;
  operations: Record<string, { items: number }>;
  /**
   * Prices restored and the requests that carry them (products.prices.patch, or product items
   * with the price inside); absent when the undo restores none.
   */
  prices?: { restored: number; requests: number };
  skipped: UndoSkip[];
}

export async function undoRun(options: UndoOptions): Promise<UndoResult> {
  const { redis, runId } = options;
  const keys = deliveryKeys(options.config.redis.prefix);
  const run = parseRun(await redis.hgetall(keys.run(runId)));
  if (!run) throw new NotFoundError('run', runId, '`ferry runs` lists the recent runs.');
  // The restoring payloads are planned (and previewed) by the contract's bindings of the run's
  // platform, as a run's.
  const config = await pipelineConfig(options.config, run.pipeline, redis, keys);
  if (run.kind === 'export') {
    throw new UndoError(`Run ${runId} is an export: it wrote files and changed nothing to undo.`, {
      runId,
    });
  }
  if (!isFinished(run)) {
    throw new UndoError(
      `Run ${runId} is ${run.status}: wait for it to end (or \`ferry cancel ${runId}\`), then undo it.`,
      { runId, status: run.status },
    );
  }
  const definition = loadPipeline(run.pipeline, config);
  let skipped: UndoSkip[] = [];
  let images = 0;
  const plan = async (version: number, onRequest?: Parameters<typeof planUndo>[0]['onRequest']) => {
    const undo = await planUndo({
      definition,
      redis,
      config,
      run: { id: run.id, version: run.version },
      version,
      ...(options.force ? { force: true } : {}),
      ...(onRequest ? { onRequest } : {}),
    });
    skipped = undo.skipped;
    images = undo.images;
    if (images === 0) {
      throw new UndoError(
        `Run ${runId} has no before-images: it delivered nothing, or they expired ` +
          `(undo.retentionDays is ${config.undo.retentionDays}).`,
        { runId },
      );
    }
    return undo.plan;
  };
  const counts = (planned: Plan) => ({
    operations: Object.fromEntries(
      Object.entries(planned.operations).map(([id, c]) => [id, { items: c.items }]),
    ),
    ...(planned.prices
      ? { prices: { restored: planned.prices.changed, requests: planned.prices.requests } }
      : {}),
  });
  if (options.dryRun) {
    const planned = await plan(run.version + 1);
    return { runId, ...counts(planned), skipped };
  }
  const started = await startRun({
    config,
    redis,
    logger: options.logger,
    pipeline: run.pipeline,
    trigger: options.trigger ?? 'cli',
    ...(options.startedBy ? { startedBy: options.startedBy } : {}),
    planned: { undoOf: runId, plan: (_definition, version, onRequest) => plan(version, onRequest) },
  });
  return {
    runId,
    undoRunId: started.runId,
    ...counts(started.plan),
    skipped,
  };
}

/** The undo's price restorations in words (the CLI's and the console's): `10 prices in 1 request`. */
export function restoredPricesText(prices: UndoResult['prices']): string | undefined {
  if (!prices) return undefined;
  const { restored, requests } = prices;
  return `${restored} ${restored === 1 ? 'price' : 'prices'} in ${requests} ${requests === 1 ? 'request' : 'requests'}`;
}

/** Entities an undo skips for one reason, of one resource: how many, and the first keys. */
export interface SkippedGroup {
  resource: string;
  reason: string;
  count: number;
  keys: string[];
}

/**
 * The skipped entities grouped by resource and reason, most first, with up to `examples` keys
 * each: a catalog's undo skips thousands of prices for one reason, which one line says.
 */
export function skippedGroups(skipped: UndoResult['skipped'], examples = 5): SkippedGroup[] {
  const groups = new Map<string, SkippedGroup>();
  for (const s of skipped) {
    const id = `${s.resource}\n${s.reason}`;
    const group = groups.get(id) ?? { resource: s.resource, reason: s.reason, count: 0, keys: [] };
    group.count += 1;
    if (group.keys.length < examples) group.keys.push(s.key);
    groups.set(id, group);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

/** One group in words: `2,947 prices: <reason> (e.g. 100993, 102243, …)`. */
export function skippedGroupText(g: SkippedGroup): string {
  const more = g.count > g.keys.length ? ', …' : '';
  return `${g.count.toLocaleString('en-US')} ${g.resource}: ${g.reason} (${g.count === 1 ? '' : 'e.g. '}${g.keys.join(', ')}${more})`;
}
