/**
 * `ferry reconcile --repair`: the changes that restore the ERP's truth, delivered as a run of the
 * pipeline through the normal queue and guards. The drifted entities' state is overlaid with what
 * the platform holds (state-overlay.ts), and the pipeline is run on its source: the plan then
 * sends exactly what the platform lacks or holds otherwise than the source says (and anything the
 * source changed since the last run), and deletes by absence what the platform holds unknown to
 * Ferry. Before the real state is touched, the same plan is made against a copy of state with
 * the overlay (scratch-state.ts): a repair the mass-delete guard stops, or a dry run, leaves state
 * as it was. The pipeline's run lock is held meanwhile, so no run plans against a half-written
 * overlay.
 */
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { FerryConfig } from '../config/index.js';
import type { Logger } from '../logging/index.js';
import {
  type PipelineDefinition,
  planPipeline,
  type AllowDeletes,
  type SourceSpec,
  type OperationCount,
} from '../pipeline/index.js';
import { createStateStore } from '../state/index.js';
import { deliveryKeys, nextVersion, lockPipeline, type RunReport } from '../runs/index.js';
import { executeRun } from '../orchestrate/index.js';
import type { RedisClient } from '../redis/index.js';
import type { DriftCheck } from './check-pipeline.js';
import { copyState, dropScratch, expireScratch } from './scratch-state.js';
import { applyOverlay } from './state-overlay.js';

export interface RepairOptions {
  config: FerryConfig;
  redis: RedisClient;
  logger: Logger;
  definition: PipelineDefinition;
  check: DriftCheck;
  source?: SourceSpec;
  sourceName?: string;
  lookupFiles?: Readonly<Record<string, string>>;
  allowDeletes: AllowDeletes;
  /** What the repair's run starts with: every platform's config (reconcile-pipeline.ts). */
  installation: FerryConfig;
  dryRun: boolean;
  /** Follow the run to its end with a worker in this process (as `ferry run --wait`). */
  wait: boolean;
  progress?: Writable;
  signal?: AbortSignal;
}

/** What the repair plans (the dry run's answer, and checked before a real repair). */
export interface RepairPlan {
  rows: number;
  rejected: number;
  operations: Record<string, OperationCount>;
  deletes: number;
}

export interface RepairOutcome {
  plan: RepairPlan;
  /** The repair's run (not for a dry run). */
  runId?: string;
  report?: RunReport;
}

export async function repairDrift(options: RepairOptions): Promise<RepairOutcome> {
  const { config, redis, definition, check } = options;
  const prefix = config.redis.prefix;
  const pipeline = definition.name;
  const keys = deliveryKeys(prefix);
  const lock = await lockPipeline(
    redis,
    keys,
    pipeline,
    `reconcile-${pipeline}-${randomBytes(2).toString('hex')}`,
  );
  let plan: RepairPlan;
  try {
    const version = await nextVersion(redis, keys, pipeline);
    const overlay = (store: ReturnType<typeof createStateStore>) =>
      applyOverlay(
        redis,
        store,
        pipeline,
        check.work,
        check.plan.checked,
        version,
        definition.deletes.enabled,
      );
    const scratch = check.work.scratchPrefix;
    const resources = [...new Set(definition.entities.map((e) => e.resource))];
    try {
      await copyState(redis, prefix, scratch, pipeline, resources);
      await overlay(createStateStore(redis, scratch));
      await expireScratch(redis, scratch, pipeline, resources);
      // Throws MassDeleteGuardError (and the source's errors) before the real state is touched.
      const planned = await planPipeline({
        definition,
        ...(options.source ? { sourceOverride: options.source } : {}),
        ...(options.lookupFiles ? { lookupFiles: options.lookupFiles } : {}),
        redis,
        config,
        prefix: scratch,
        version: version + 1,
        allowDeletes: options.allowDeletes,
        onRequest: () => undefined,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      plan = {
        rows: planned.rows,
        rejected: planned.errors.length,
        operations: planned.operations,
        deletes: planned.deletes,
      };
    } finally {
      await dropScratch(redis, scratch, pipeline, resources);
    }
    if (options.dryRun) return { plan };
    await overlay(createStateStore(redis, prefix));
  } finally {
    await lock.release();
  }
  const report = await executeRun({
    config: options.installation,
    logger: options.logger,
    pipeline,
    ...(options.source ? { source: options.source } : {}),
    ...(options.sourceName ? { sourceName: options.sourceName } : {}),
    ...(options.lookupFiles ? { lookupFiles: options.lookupFiles } : {}),
    allowDeletes: options.allowDeletes,
    kind: 'repair',
    wait: options.wait,
    ...(options.progress ? { progress: options.progress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { plan, runId: report.runId, report };
}
