/**
 * planPipeline: source -> mapping -> change detection against state -> a staged, batched, keyed
 * Plan. Records stream through: what is held for the whole input is one entry per key (to find
 * repeats and deletes by absence) and grouped entities; payloads live only in the batch being
 * planned, unless the plan keeps its requests. Planning reads state and never writes it.
 */
import { withLookupFiles } from './lookups/with-lookup-files.js';
import type { RedisClient } from '../redis/index.js';
import type { FerryConfig } from '../config/index.js';
import type { DetectContext } from './change-detection.js';
import type { PipelineDefinition } from './definition/definition-types.js';
import { withPayloadContract } from './contract/payload-contract.js';
import { checkSchema } from './mapping/compile-entity.js';
import type { FieldIssue } from './mapping/field-types.js';
import { KeyRegistry, type GroupedEntity, type MappedEntity } from './mapping/key-registry.js';
import { mapRecord, rowError } from './mapping/record-mapper.js';
import { checkGuard, emitDeletes, scanDeletes, type AllowDeletes } from './plan-deletes.js';
import { RequestBuilder, type RequestSink } from './planner/request-builder.js';
import { refusalCounts } from './planner/refusal-counts.js';
import { plansByInput, RecordBatches } from './planner/record-batches.js';
import { StateBatches } from './planner/state-batches.js';
import { checkKeyColumns } from './source/key-columns.js';
import { readRecords, type SourceSpec } from './source/read-records.js';
import { createStateStore } from '../state/index.js';
import { GuardWatcher } from './guards/value-guards.js';
import { createPayloadHistory } from '../state/index.js';
import type { OperationCount, Plan, PlanStage } from './types.js';
import type { RowError } from '../base/index.js';

export { loadPipeline } from './definition/load-pipeline.js';
export type { PipelineDefinition } from './definition/definition-types.js';
export type { AllowDeletes } from './plan-deletes.js';
export type { RequestSink } from './planner/request-builder.js';

/** Entities per state read. */
const BATCH = 4_096;
const PROGRESS_EVERY = 50_000;

export interface PlanProgress {
  phase: 'reading' | 'deletes' | 'done';
  rows: number;
  errors: number;
}

export interface PlanOptions {
  definition: PipelineDefinition;
  /** Read this instead of the pipeline's own source (e.g. `--file`). */
  sourceOverride?: SourceSpec;
  /** Lookup name -> a file to read instead of the lookup's own (`--lookup NAME=PATH`). */
  lookupFiles?: Readonly<Record<string, string>>;
  redis: RedisClient;
  config: FerryConfig;
  /** Key prefix of the state (default config.redis.prefix, i.e. FERRY_PREFIX). */
  prefix?: string;
  /** The version every planned item carries; monotonic across runs (default Date.now()). */
  version?: number;
  /** Lets this run delete more than the guard allows: true, or at most this many. */
  allowDeletes?: AllowDeletes;
  /** Rows of the pipeline's last sync run, for the value guard `rows` (none: not checked). */
  lastRows?: number;
  onProgress?: (progress: PlanProgress) => void;
  /**
   * Receives every request as soon as it is complete. The plan may still fail after (the mass-
   * delete guard is checked at the end): hold them until planPipeline resolves.
   */
  onRequest?: RequestSink;
  /** Keep the requests in `plan.stages` (default: true, false when onRequest is given). */
  retainRequests?: boolean;
  signal?: AbortSignal;
}

/**
 * Checks each grouped entity against its schema once all its rows are in. Like a record, a row is
 * accepted or rejected as a whole: the rows of a group that fails give no other grouped entity
 * either (a product rejected for its rows sends no prices made of those rows).
 */
function checkGroups(registry: KeyRegistry, errors: RowError[]): MappedEntity[][] {
  const passed: GroupedEntity[] = [];
  // The rows of rejected groups, as file:line (a group's rows are in its first row's file).
  const rejected = new Set<string>();
  const rowsOf = (group: GroupedEntity) => group.lines.map((l) => `${group.source.file}:${l}`);
  for (const group of registry.grouped()) {
    const issues: FieldIssue[] = [];
    if (group.payload) {
      checkSchema(group.entity.mapping, group.payload, issues, group.kind === 'patch');
      if (issues.length === 0) group.entity.contract?.check(group.payload, group.kind, issues);
    }
    if (issues.length > 0) {
      const error = rowError(group.source, issues, group.key);
      if (group.lines.length > 1) error.message += ` (rows of lines ${group.lines.join(', ')})`;
      errors.push(error);
      for (const row of rowsOf(group)) rejected.add(row);
    } else passed.push(group);
  }
  return passed.filter((g) => !rowsOf(g).some((row) => rejected.has(row))).map((g) => [g]);
}

function operationCounts(
  stages: readonly string[][],
  counts: ReadonlyMap<string, OperationCount>,
): Record<string, OperationCount> {
  const out: Record<string, OperationCount> = {};
  for (const id of stages.flat()) {
    const c = counts.get(id);
    if (c && c.items > 0) out[id] = c;
  }
  return out;
}

export async function planPipeline(options: PlanOptions): Promise<Plan> {
  const { redis, onProgress, onRequest, signal } = options;
  // File lookups and the platform's description are read first: a missing one stops the plan
  // before a record is read.
  const definition = await withPayloadContract(
    await withLookupFiles(options.definition, options.lookupFiles, signal),
    options.config,
  );
  const prefix = options.prefix ?? options.config.redis.prefix;
  const retain = options.retainRequests ?? onRequest === undefined;
  const version = options.version ?? Date.now();
  const store = createStateStore(redis, prefix);
  const registry = new KeyRegistry(definition.entities);
  const stages: PlanStage[] = definition.stages.map((operationIds, index) => ({
    index,
    operationIds,
    requests: [],
  }));
  const stageOf = new Map(definition.stages.flatMap((ids, i) => ids.map((id) => [id, i] as const)));
  const builder = new RequestBuilder(
    definition.name,
    stageOf,
    (stage, request) => {
      if (retain) stages[stage]?.requests.push(request);
      onRequest?.(stage, request);
    },
    await refusalCounts(redis, prefix, definition),
  );
  let deletes = 0;
  const guards = definition.guards
    ? new GuardWatcher(
        definition.guards,
        definition.name,
        createPayloadHistory(redis, prefix, options.config.undo.retentionDays),
        store,
        definition.entities.map((e) => ({
          resource: e.resource,
          fields: Object.keys(e.spec.fields),
        })),
      )
    : undefined;
  const ctx: DetectContext = {
    mode: definition.mode,
    version,
    emit: (ref, item, json) => {
      if (item.kind === 'delete') deletes += 1;
      ref.check?.(item);
      guards?.observe(item);
      builder.add(ref, item, ref.json ? ref.json(item.payload) : json);
    },
    unchanged: new Map(),
    liveSeen: [],
  };
  const batches = new StateBatches(store, definition.name, ctx);
  const errors: RowError[] = [];
  const byInput = plansByInput(definition)
    ? new RecordBatches(definition, registry, store, ctx, errors)
    : undefined;
  let rows = 0;
  let batch: MappedEntity[][] = [];
  let size = 0;

  const read = readRecords(definition, options.sourceOverride, signal);
  // Each file of a folder has its own header: checked when its first item comes.
  let checkedSource: unknown;
  for await (const item of read.items) {
    if (signal?.aborted) throw signal.reason;
    if (read.meta.source !== checkedSource) {
      checkedSource = read.meta.source;
      checkKeyColumns(definition, read.meta);
    }
    rows += 1;
    if (byInput) {
      if (byInput.add(item)) await byInput.flush();
    } else if ('error' in item) errors.push(item.error);
    else {
      const result = mapRecord(definition, registry, item.record);
      if ('error' in result) errors.push(result.error);
      else if (result.entities.length > 0) {
        batch.push(result.entities);
        size += result.entities.length;
        if (size >= BATCH) {
          await batches.push(batch);
          batch = [];
          size = 0;
        }
      }
    }
    if (rows % PROGRESS_EVERY === 0)
      onProgress?.({ phase: 'reading', rows, errors: errors.length });
  }
  await byInput?.drain();
  await batches.push(batch);
  const groups = checkGroups(registry, errors);
  for (let i = 0; i < groups.length; i += BATCH) await batches.push(groups.slice(i, i + BATCH));
  await batches.drain();
  signal?.throwIfAborted();

  onProgress?.({ phase: 'deletes', rows, errors: errors.length });
  const scan = await scanDeletes(definition, registry, store, ctx.liveSeen);
  signal?.throwIfAborted();
  checkGuard(definition, scan, rows, options.allowDeletes);
  emitDeletes(scan, version, ctx.emit);
  builder.finish();
  const guardReport = await guards?.finish(rows, options.lastRows);
  onProgress?.({ phase: 'done', rows, errors: errors.length });

  return {
    ...(guardReport ? { guards: guardReport } : {}),
    pipeline: definition.name,
    version,
    rows,
    stages,
    operations: operationCounts(definition.stages, builder.counts),
    errors,
    deletes,
    unchanged: Object.fromEntries(ctx.unchanged),
    ...(builder.prices.changed > 0 ? { prices: builder.prices } : {}),
  };
}
