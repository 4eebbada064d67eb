/**
 * `ferry reconcile` as a function: the check (check-pipeline.ts), a repair when asked and there
 * is drift (repair.ts), the last reconciliation recorded for the console and /metrics, and the
 * working sets removed. Its document is docs/RECONCILE.md's {pipeline, checked, missing, different,
 * unknown, samples, repairRunId?}, with more beside it.
 */
import type { Writable } from 'node:stream';
import type { FerryConfig } from '../config/index.js';
import { isFerryError } from '../errors/index.js';
import { createInterfaceClient } from '../interface/index.js';
import type { Logger } from '../logging/index.js';
import type { PipelineDefinition, AllowDeletes, SourceSpec } from '../pipeline/index.js';
import type { RunReport } from '../runs/index.js';
import type { RedisClient } from '../redis/index.js';
import { checkPipeline, type DriftCheck } from './check-pipeline.js';
import type { ResourceCounts } from './compare-resource.js';
import type { DriftSample } from './drift-report.js';
import { recordReconciliation } from './last-reconciliation.js';
import { repairDrift, type RepairPlan } from './repair.js';
import { dropWork } from './keys.js';

export interface ReconcileOptions {
  config: FerryConfig;
  redis: RedisClient;
  logger: Logger;
  definition: PipelineDefinition;
  pageSize: number;
  source?: SourceSpec;
  /** Shown in the repair run's report: the file given with --file. */
  sourceName?: string;
  lookupFiles?: Readonly<Record<string, string>>;
  repair?: {
    dryRun: boolean;
    wait: boolean;
    allowDeletes: AllowDeletes;
    progress?: Writable;
    /**
     * The installation's whole config (every platform), which the repair's run is started with as
     * `ferry run` starts one: `config` above is the pipeline's platform's only, and a worker of
     * this process serves every platform's jobs.
     */
    installation: FerryConfig;
  };
  signal?: AbortSignal;
}

export interface RepairDocument {
  dryRun: boolean;
  /** What the repair plans (checked against the guard before anything changes). */
  plan?: RepairPlan;
  runId?: string;
  status?: RunReport['status'];
  operations?: RunReport['operations'];
  /** Why the repair stopped (the mass-delete guard, an unreadable source, an active run). */
  error?: { code: string; message: string };
}

export interface ReconcileDocument {
  pipeline: string;
  checked: number;
  missing: number;
  different: number;
  unknown: number;
  samples: DriftSample[];
  repairRunId?: string;
  resources: ResourceCounts[];
  unchecked: DriftCheck['unchecked'];
  csv?: string;
  requests: number;
  source?: DriftCheck['source'];
  repair?: RepairDocument;
  seconds: number;
}

export function hasDrift(doc: Pick<ReconcileDocument, 'missing' | 'different' | 'unknown'>) {
  return doc.missing + doc.different + doc.unknown > 0;
}

async function repair(options: ReconcileOptions, check: DriftCheck): Promise<RepairDocument> {
  const asked = options.repair as NonNullable<ReconcileOptions['repair']>;
  const doc: RepairDocument = { dryRun: asked.dryRun };
  try {
    const outcome = await repairDrift({
      config: options.config,
      redis: options.redis,
      logger: options.logger,
      definition: options.definition,
      check,
      ...(options.source ? { source: options.source } : {}),
      ...(options.sourceName ? { sourceName: options.sourceName } : {}),
      ...(options.lookupFiles ? { lookupFiles: options.lookupFiles } : {}),
      allowDeletes: asked.allowDeletes,
      installation: asked.installation,
      dryRun: asked.dryRun,
      wait: asked.wait,
      ...(asked.progress ? { progress: asked.progress } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    doc.plan = outcome.plan;
    if (outcome.report) {
      doc.runId = outcome.report.runId;
      doc.status = outcome.report.status;
      doc.operations = outcome.report.operations;
    }
  } catch (error) {
    if (!isFerryError(error) || options.signal?.aborted) throw error;
    doc.error = { code: error.code, message: error.message };
  }
  return doc;
}

export async function reconcilePipeline(options: ReconcileOptions): Promise<ReconcileDocument> {
  const { config, redis, definition } = options;
  const client = createInterfaceClient(config.interface, {
    logger: options.logger,
    ...(config.platform ? { platform: config.platform } : {}),
  });
  let check: DriftCheck | undefined;
  try {
    check = await checkPipeline({
      config,
      redis,
      client,
      definition,
      pageSize: options.pageSize,
      ...(options.source ? { source: options.source } : {}),
      ...(options.lookupFiles ? { lookupFiles: options.lookupFiles } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const doc: ReconcileDocument = {
      pipeline: check.pipeline,
      checked: check.checked,
      missing: check.missing,
      different: check.different,
      unknown: check.unknown,
      samples: check.samples,
      resources: check.resources,
      unchecked: check.unchecked,
      requests: check.requests,
      seconds: check.seconds,
    };
    if (check.csv) doc.csv = check.csv;
    if (check.source) doc.source = check.source;
    if (options.repair && hasDrift(doc)) {
      doc.repair = await repair(options, check);
      if (doc.repair.runId) doc.repairRunId = doc.repair.runId;
    }
    await recordReconciliation(redis, config.redis.prefix, {
      pipeline: doc.pipeline,
      at: Date.now(),
      seconds: doc.seconds,
      checked: doc.checked,
      missing: doc.missing,
      different: doc.different,
      unknown: doc.unknown,
      ...(doc.csv ? { csv: doc.csv } : {}),
      ...(doc.repairRunId ? { repairRunId: doc.repairRunId } : {}),
    });
    return doc;
  } finally {
    if (check) {
      await dropWork(
        redis,
        check.work,
        check.plan.checked.map((r) => r.resource),
      );
    }
    await client.close();
  }
}
