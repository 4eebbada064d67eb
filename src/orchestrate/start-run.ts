/**
 * Starting a run, in three steps: plan (lock the pipeline, plan it, the planned requests going into
 * jobs and the jobs into the run's stage lists as they come) -> record the run -> release its
 * first stage with jobs to the lane's queue. The rest is the workers' (settle-job.ts releases the
 * next stage when one settles). When planning fails (a guard, bad input) nothing
 * was enqueued and the pipeline is free again.
 */
import { type RedisClient, isRedisConnectionError } from '../redis/index.js';
import { type FerryConfig, platformConfig, splitPipelineName } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import { context } from '@opentelemetry/api';
import { inSpan, type Logger } from '../logging/index.js';
import {
  loadPipeline,
  sourceFileName,
  sourceSpecOf,
  planPipeline,
  type AllowDeletes,
  type PipelineDefinition,
  type PlanProgress,
  type RequestSink,
  type SourceSpec,
  type Plan,
  MassDeleteGuardError,
  ValueGuardError,
  pipelineTarget,
  pipelineTargets,
} from '../pipeline/index.js';
import { JobBundler, openQueues, releaseStage } from '../queue/index.js';
import { platformUrl } from '../state/index.js';
import { gateRun } from './check-contract.js';
import { activeTraceId } from './run-span.js';
import { claimStatePlatform } from './claim-platform.js';
import {
  guardDataLoss,
  markResent,
  type DataLoss,
  deliveryKeys,
  type DeliveryKeys,
  type Lane,
  ERRORS_KEPT,
  newRunId,
  nextVersion,
  indexRun,
  lockPipeline,
  type RunLock,
  parseRun,
  type RunKind,
  type RunStatus,
  type StageInfo,
  type Trigger,
  notifyRunEnded,
  guardStopped,
  valueGuardStopped,
  type GuardStoppedRun,
  claimAllowance,
  loadStoppedRun,
  keepInput,
  keptInputSource,
  type AllowGuard,
  lastSyncRows,
  countRunEnd,
  itemsField,
  lastSuccessField,
  RETENTION_S,
  addRejectedRows,
  StageWriter,
  recordRedisLost,
  redisLostReason,
  startInterrupted,
  type InterruptedStart,
  type StartPhase,
  type RunContract,
  contractedConfig,
  keepRunDescription,
} from '../runs/index.js';

export interface StartRunOptions {
  config: FerryConfig;
  redis: RedisClient;
  logger: Logger;
  pipeline: string;
  /** Read this instead of the pipeline's own source. */
  source?: SourceSpec;
  /** Shown in the report: the file given with --file. */
  sourceName?: string;
  allowDeletes?: AllowDeletes;
  /** A repair's run (reconciliation), recorded as such; default sync (an undo's is undo). */
  kind?: 'sync' | 'repair';
  /** Another plan than the pipeline's source (an undo), and the run it answers. */
  planned?: {
    plan: (
      definition: PipelineDefinition,
      version: number,
      onRequest: RequestSink,
    ) => Promise<Plan>;
    /** Recorded on the run: the run it undoes. */
    undoOf: string;
  };
  /** Sends the plan a run the value guards stopped, once, when this plan is exactly that one. */
  allowGuard?: AllowGuard;
  /**
   * After Redis lost its data: send everything the plan holds (see epoch/data-loss-guard.ts); when
   * the state belongs to another platform: start it over on this one (claim-platform.ts).
   */
  resendAll?: boolean;
  /** Lookup name -> a file to read instead (`--lookup NAME=PATH`). */
  lookupFiles?: Readonly<Record<string, string>>;
  lane?: Lane;
  onProgress?: (progress: PlanProgress) => void;
  signal?: AbortSignal;
  /** What started the run (default cli), and for a schedule's tick its time and lateness. */
  trigger?: Trigger;
  /** The console token's name that started it (an HTTP import). */
  startedBy?: string;
  scheduledAt?: number;
  lateSeconds?: number;
}

export interface StartedRun {
  runId: string;
  plan: Plan;
  /** False when the plan had nothing to send (the run is finished already). */
  enqueued: boolean;
}

/** A pipeline's lane (delivery.pipelineLanes names pipelines without their platform). */
export function laneOf(config: FerryConfig, pipeline: string, override?: Lane): Lane {
  const lanes = config.delivery.pipelineLanes;
  return (
    override ??
    lanes[pipeline] ??
    lanes[splitPipelineName(pipeline).pipeline] ??
    config.delivery.lane
  );
}

/** Unchanged entities (per resource) -> skipped items of the operation that would send them. */
function skippedByOperation(definition: PipelineDefinition, plan: Plan): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [resource, n] of Object.entries(plan.unchanged)) {
    const entity = definition.entities.find((e) => e.resource === resource);
    const op = entity?.operations.upsert ?? entity?.operations.patch;
    if (op && n > 0) out[op.operation.id] = (out[op.operation.id] ?? 0) + n;
  }
  return out;
}

/**
 * What the run's record calls its file, decided once here: the name it was given (an upload's),
 * else the file as the operator wrote it (--file, the pipeline's source); never the server's path.
 * An undo reads no file: it plans from before-images.
 */
function fileOf(options: StartRunOptions, definition: PipelineDefinition): string | undefined {
  if (options.planned) return undefined;
  return options.sourceName ?? sourceFileName(definition, options.source);
}

/** The run's kind: an undo's, a repair's, else sync. */
function kindOf(options: StartRunOptions): RunKind {
  return options.planned ? 'undo' : (options.kind ?? 'sync');
}

function runFields(
  runId: string,
  lane: Lane,
  options: StartRunOptions,
  definition: PipelineDefinition,
  plan: Plan,
  stages: StageInfo[],
  contract: RunContract | undefined,
  plannedFrom: number,
): Record<string, string | number> {
  const fields: Record<string, string | number> = {
    id: runId,
    pipeline: plan.pipeline,
    kind: kindOf(options),
    trigger: options.trigger ?? 'cli',
    lane,
    status: 'running',
    // Its workers deliver only to this platform (process-job.ts), the one its state belongs to.
    platform: platformUrl(options.config.interface),
    version: plan.version,
    rows: plan.rows,
    rejected: plan.errors.length,
    plannedFrom,
    createdAt: Date.now(),
    stageCount: stages.length,
    stages: JSON.stringify(stages),
    currentStage: Math.max(
      0,
      stages.findIndex((s) => s.jobs > 0),
    ),
    releasedStage: -1,
  };
  const file = fileOf(options, definition);
  if (file) fields.file = file;
  if (options.startedBy) fields.startedBy = options.startedBy;
  // Recorded within the run's span: its trace holds its jobs and requests (docs/TRACES.md).
  const traceId = activeTraceId();
  if (traceId) fields.traceId = traceId;
  if (options.allowGuard) fields.allowedFrom = options.allowGuard.stoppedRunId;
  if (options.planned) fields.undoOf = options.planned.undoOf;
  if (options.scheduledAt !== undefined) fields.scheduledAt = options.scheduledAt;
  if (options.lateSeconds !== undefined) fields.lateSeconds = options.lateSeconds;
  if (contract) fields.contract = JSON.stringify(contract);
  // Its workers send by the description it was planned by (runs/contract/run-description.ts).
  if (options.config.contract) fields.descriptionSha = options.config.contract.sha256;
  if (plan.prices) fields.prices = JSON.stringify(plan.prices);
  for (const s of stages) fields[`pending:${s.index}`] = s.jobs;
  for (const [id, count] of Object.entries(plan.operations))
    fields[`op:${id}:planned`] = count.items;
  for (const [id, n] of Object.entries(skippedByOperation(definition, plan))) {
    fields[`op:${id}:skipped`] = n;
    if (fields[`op:${id}:planned`] === undefined) fields[`op:${id}:planned`] = 0;
  }
  return fields;
}

interface RedisLostRun extends Omit<InterruptedStart, 'phase'> {
  stages: number;
  writer: StageWriter;
  lock: { release(): Promise<unknown> };
  keys: ReturnType<typeof deliveryKeys>;
}

/**
 * Redis went away while the run was planned or recorded: once it answers again, the run's stage
 * lists and lock are let go and the run recorded as failed, saying where it stopped; the error
 * (exit code 5) names the run. Bounded: a Redis that does not come back leaves the lock to expire.
 */
async function redisLost(
  options: StartRunOptions,
  run: RedisLostRun,
  phase: StartPhase,
  cause: unknown,
): Promise<Error> {
  const { writer, lock, stages, keys, ...rest } = run;
  const interrupted: InterruptedStart = {
    ...rest,
    phase,
    ...(options.startedBy ? { startedBy: options.startedBy } : {}),
  };
  const recorded = await recordRedisLost(
    options.redis,
    keys,
    interrupted,
    redisLostReason(phase, cause),
  );
  if (recorded) {
    await writer.discard(stages).catch(() => undefined);
    await lock.release().catch(() => undefined);
  }
  options.logger.warn(
    { runId: run.runId, phase, recorded },
    'Redis went away while the run was started: nothing was enqueued',
  );
  return startInterrupted(options.config.redis.url, interrupted, recorded, cause);
}

/** The run a guard stopped, as recorded, with the copy of its input an allow-once reads. */
async function stoppedRun(
  options: StartRunOptions,
  definition: PipelineDefinition,
  file: string | undefined,
  run: Pick<GuardStoppedRun, 'runId' | 'pipeline' | 'lane' | 'createdAt'>,
): Promise<GuardStoppedRun> {
  const { startedBy, scheduledAt, lateSeconds, config } = options;
  const keptInput = await keepInput(
    sourceSpecOf(definition, options.source),
    config.delivery.reportsDir,
    run.runId,
    config.undo.retentionDays,
  );
  return {
    ...run,
    trigger: options.trigger ?? 'cli',
    kind: kindOf(options),
    ...(file ? { file } : {}),
    ...(keptInput ? { keptInput } : {}),
    ...(startedBy ? { startedBy } : {}),
    ...(scheduledAt !== undefined ? { scheduledAt } : {}),
    ...(lateSeconds !== undefined ? { lateSeconds } : {}),
  };
}

/** A run planned: its pipeline locked, its requests in the run's stage lists, not recorded yet. */
interface PlannedRun {
  runId: string;
  lane: Lane;
  definition: PipelineDefinition;
  keys: DeliveryKeys;
  lock: RunLock;
  writer: StageWriter;
  plan: Plan;
  /** A loss of Redis's data the plan was checked against (the data-loss guard). */
  loss: DataLoss | undefined;
  /** What is recorded of the run when Redis goes away before it is (redisLost). */
  lost: RedisLostRun;
  /** When its reading and planning began (ms). */
  plannedFrom: number;
}

/**
 * Plan: lock the pipeline, plan its input (the requests going into jobs, the jobs into the run's
 * stage lists as they come) and check the plan against a loss of Redis's data. When planning fails
 * nothing is kept and the pipeline is free again; a guard stop (mass-delete or value) is recorded as a run.
 */
async function planRun(
  options: StartRunOptions,
  definition: PipelineDefinition,
): Promise<PlannedRun> {
  const { config, redis } = options;
  const keys = deliveryKeys(config.redis.prefix);
  const runId = newRunId(definition.name);
  const createdAt = Date.now();
  const lane = laneOf(config, definition.name, options.lane);
  const file = fileOf(options, definition);
  const lock = await lockPipeline(redis, keys, definition.name, runId);
  const writer = new StageWriter(redis, keys, runId);
  const lost: RedisLostRun = {
    runId,
    pipeline: definition.name,
    lane,
    trigger: options.trigger ?? 'cli',
    kind: kindOf(options),
    createdAt,
    ...(file ? { file } : {}),
    stages: definition.stages.length,
    writer,
    lock,
    keys,
  };
  let plannedRows = 0;
  try {
    await claimStatePlatform(options, definition, options.resendAll ?? false);
    const version = await nextVersion(redis, keys, definition.name);
    const bundler = new JobBundler(config.delivery.bundleSize, (job) => writer.push(job));
    const onRequest: RequestSink = (stage, request) => bundler.add(stage, request);
    const plan = options.planned
      ? await options.planned.plan(definition, version, onRequest)
      : await planPipeline({
          definition,
          ...(options.source ? { sourceOverride: options.source } : {}),
          ...(options.lookupFiles ? { lookupFiles: options.lookupFiles } : {}),
          redis,
          prefix: config.redis.prefix,
          config,
          version,
          allowDeletes: options.allowDeletes ?? false,
          ...(definition.guards?.rows
            ? { lastRows: await lastSyncRows(redis, keys, definition.name) }
            : {}),
          onRequest,
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        });
    bundler.finish();
    plannedRows = plan.rows;
    if (plan.guards?.tripped) {
      if (!options.allowGuard) {
        throw new ValueGuardError({ pipeline: definition.name, guards: plan.guards });
      }
      await claimAllowance(
        redis,
        keys,
        options.allowGuard,
        definition.name,
        plan.guards.planDigest,
        runId,
      );
    }
    await writer.flush();
    const requests = [...writer.totals.values()].reduce((n, t) => n + t.requests, 0);
    const loss = await guardDataLoss(redis, keys, plan, requests, options.resendAll ?? false);
    // Stopped after its last record was read (grouping, deletes, writing its jobs: seconds for a
    // million rows): nothing is recorded or released, as when stopped while reading.
    options.signal?.throwIfAborted();
    return {
      runId,
      lane,
      definition,
      keys,
      lock,
      writer,
      plan,
      loss,
      lost,
      plannedFrom: createdAt,
    };
  } catch (error) {
    if (isRedisConnectionError(error)) throw await redisLost(options, lost, 'planning', error);
    await writer.discard(definition.stages.length);
    await lock.release();
    if (error instanceof MassDeleteGuardError || error instanceof ValueGuardError) {
      const stop = await stoppedRun(options, definition, file, {
        runId,
        pipeline: definition.name,
        lane,
        createdAt,
      });
      const ctx = { config, redis, keys, logger: options.logger };
      throw error instanceof MassDeleteGuardError
        ? await guardStopped(ctx, stop, error)
        : await valueGuardStopped(ctx, stop, plannedRows, error);
    }
    throw error;
  }
}

/** A run recorded: its record's fields, its stages, and whether it has anything to send. */
interface RecordedRun {
  fields: Record<string, string | number>;
  stages: StageInfo[];
  hasJobs: boolean;
}

/**
 * Record: the run's record, its place in the indexes, its rejected records and figures, in one
 * transaction, after the lock was kept (a run whose lock lapsed while planning must not start);
 * then its stage lists are kept. A plan with nothing to send is recorded finished.
 */
async function recordRun(
  options: StartRunOptions,
  run: PlannedRun,
  contract: RunContract | undefined,
): Promise<RecordedRun> {
  const { redis } = options;
  const { runId, definition, keys, lock, writer, plan } = run;
  const stages: StageInfo[] = plan.stages.map((s) => ({
    index: s.index,
    operationIds: s.operationIds,
    jobs: writer.totals.get(s.index)?.jobs ?? 0,
    requests: writer.totals.get(s.index)?.requests ?? 0,
  }));
  const fields = runFields(
    runId,
    run.lane,
    options,
    definition,
    plan,
    stages,
    contract,
    run.plannedFrom,
  );
  const hasJobs = stages.some((s) => s.jobs > 0);
  const now = Date.now();
  if (!hasJobs) {
    fields.status = plan.errors.length > 0 ? 'partial' : 'succeeded';
    fields.finishedAt = now;
  }
  const multi = indexRun(
    redis.multi().hset(keys.run(runId), fields),
    keys,
    { id: runId, pipeline: definition.name },
    now,
  );
  if (!hasJobs) {
    // Nothing to send: every planned item (none) settled, so a sync run is a success.
    const kind = kindOf(options);
    countRunEnd(multi, keys.metrics, {
      pipeline: definition.name,
      status: fields.status as RunStatus,
      kind,
    });
    if (kind === 'sync') multi.hset(keys.metrics, lastSuccessField(definition.name), now);
  }
  for (const [operationId, n] of Object.entries(skippedByOperation(definition, plan))) {
    multi.hincrby(keys.metrics, itemsField(definition.name, operationId, 'skipped'), n);
  }
  for (let i = 0; i < plan.errors.length && i < ERRORS_KEPT; i += 1_000) {
    const chunk = plan.errors.slice(i, Math.min(i + 1_000, ERRORS_KEPT));
    multi.rpush(keys.runErrors(runId), ...chunk.map((e) => JSON.stringify(e)));
  }
  addRejectedRows(multi, keys, runId, plan.errors.slice(0, ERRORS_KEPT), RETENTION_S);
  if (hasJobs) multi.sadd(keys.activeRuns, runId);
  try {
    if (hasJobs) await lock.keep();
    if (hasJobs && options.config.contract) {
      await keepRunDescription(redis, keys, options.config.contract);
    }
    await multi.exec();
    if (hasJobs) await writer.keep();
    if (run.loss && options.resendAll) await markResent(redis, keys, definition.name);
  } catch (error) {
    if (isRedisConnectionError(error)) throw await redisLost(options, run.lost, 'recording', error);
    await writer.discard(definition.stages.length);
    await lock.release();
    throw error;
  }
  return { fields, stages, hasJobs };
}

/**
 * Release: the first stage with jobs goes to the lane's queue (the workers release the next as
 * each settles: settle-job.ts); a run with nothing to send frees its pipeline and is announced.
 */
async function releaseRun(
  options: StartRunOptions,
  run: PlannedRun,
  recorded: RecordedRun,
): Promise<StartedRun> {
  const { config, redis } = options;
  const { runId, definition, keys, plan, lane } = run;
  if (!recorded.hasJobs) {
    await run.lock.release();
    options.logger.info({ runId, pipeline: definition.name }, 'nothing to send');
    const ended = parseRun(await redis.hgetall(keys.run(runId)));
    if (ended) await notifyRunEnded({ config, redis, keys, logger: options.logger }, ended);
    return { runId, plan, enqueued: false };
  }
  const queues = openQueues(redis, keys);
  try {
    await releaseStage(
      { redis, keys, queues, delivery: config.delivery },
      { id: runId, pipeline: definition.name, lane },
      Number(recorded.fields.currentStage),
    );
  } catch (error) {
    if (!isRedisConnectionError(error)) throw error;
    // The run is recorded and its jobs kept in its stage list: the workers' supervisor releases
    // what this process could not (job ids make a repeat a no-op), so the run goes on.
    options.logger.warn(
      { runId, reason: (error as NodeJS.ErrnoException).code ?? (error as Error).name },
      'Redis went away while the run was released: the workers release the rest',
    );
  } finally {
    await queues.close().catch(() => undefined);
  }
  options.logger.info(
    {
      runId,
      pipeline: definition.name,
      lane,
      jobs: recorded.stages.reduce((n, s) => n + s.jobs, 0),
    },
    'run enqueued',
  );
  return { runId, plan, enqueued: true };
}

/**
 * An allow-once is refused (and audited) before anything is planned when it cannot be given; it
 * reads the stopped run's kept input unless another source is given (`--file`).
 */
async function allowedInput(
  options: StartRunOptions,
  keys: DeliveryKeys,
): Promise<Pick<StartRunOptions, 'source' | 'sourceName'>> {
  if (!options.allowGuard) return {};
  const stopped = await loadStoppedRun(options.redis, keys, options.allowGuard, options.pipeline);
  if (options.source) return {};
  return {
    source: await keptInputSource(stopped),
    ...(stopped.file ? { sourceName: stopped.file } : {}),
  };
}

/**
 * Starts a run: the contract's gate (a breaking change to the platform's description refuses it
 * before anything is planned or sent) -> plan -> record -> release.
 */
export async function startRun(given: StartRunOptions): Promise<StartedRun> {
  const { redis, logger } = given;
  const keys = deliveryKeys(given.config.redis.prefix);
  // The platform it runs on: its address, credential, description and rate (config/platforms.ts).
  const target = pipelineTarget(given.pipeline, given.config);
  if (target === undefined) {
    throw new UsageError(
      `${given.pipeline} delivers to several platforms: start one run per platform (${pipelineTargets(given.pipeline, given.config).join(', ')})`,
    );
  }
  const onPlatform = platformConfig(given.config, splitPipelineName(target).platform);
  // Every run (CLI, console, schedule tick, undo) plans by the contract's bindings and schemas.
  const config = await contractedConfig(onPlatform, redis, keys);
  const targeted = { ...given, pipeline: target };
  const options = { ...targeted, config, ...(await allowedInput(targeted, keys)) };
  const definition = loadPipeline(options.pipeline, config);
  const contract = await gateRun({ config, redis, keys, logger }, definition, {
    pipeline: definition.name,
    lane: laneOf(config, definition.name, options.lane),
    trigger: options.trigger ?? 'cli',
    ...(options.startedBy ? { startedBy: options.startedBy } : {}),
    ...(options.sourceName ? { file: options.sourceName } : {}),
    ...(options.scheduledAt !== undefined ? { scheduledAt: options.scheduledAt } : {}),
    ...(options.lateSeconds !== undefined ? { lateSeconds: options.lateSeconds } : {}),
  });
  const attributes = {
    'ferry.pipeline': definition.name,
    'ferry.platform': platformUrl(config.interface),
    'ferry.run_kind': options.planned ? 'undo' : 'sync',
  };
  return await inSpan('ferry.run', { attributes }, context.active(), async (runSpan) => {
    const planned = await inSpan(
      'ferry.plan',
      { attributes },
      context.active(),
      async (planSpan) => {
        const run = await planRun(options, definition);
        planSpan.setAttribute('ferry.run_id', run.runId);
        planSpan.setAttribute('ferry.rows', run.plan.rows);
        return run;
      },
    );
    runSpan.setAttribute('ferry.run_id', planned.runId);
    const recorded = await recordRun(options, planned, contract);
    return await releaseRun(options, planned, recorded);
  });
}
