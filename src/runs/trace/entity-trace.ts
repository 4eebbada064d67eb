/**
 * The trace of one entity (a product, store or user key) in one pipeline: what state holds for it
 * (per resource of the pipeline: hash, version, the run that committed it and when), what recent
 * runs planned for it and how that ended, the rows of it recent runs rejected, and the dead
 * letters waiting with its key. The one
 * document `ferry trace --json` prints and `GET /api/entities/{pipeline}/{key}` answers: the
 * answer to "why is this product not on the shop?".
 */
import { didYouMean } from '../../base/index.js';
import { type FerryConfig, splitPipelineName } from '../../config/index.js';
import {
  type PipelineDefinition,
  allPipelineTargets,
  loadPipeline,
  pipelineNames,
  pipelineTarget,
  pipelineTargets,
  type ChangeKind,
} from '../../pipeline/index.js';
import { createStateStore } from '../../state/index.js';
import type { RedisClient } from '../../redis/index.js';
import type { DeadLetter } from '../dead-letters/dead-letter.js';
import type { DeadLetterStore } from '../dead-letters/dead-letter-store.js';
import { deadLetterRow, type DeadLetterRow } from '../dead-letters/dead-letter-views.js';
import { NotFoundError } from '../errors.js';
import type { DeliveryKeys } from '../keys.js';
import { plannedChanges } from '../run-changes.js';
import { rejectedRows } from '../run-rejected.js';
import { recentRuns } from '../run-index.js';
import { isFinished, type RunRecord } from '../run-record.js';

/** Runs of the pipeline a trace looks through, newest first, unless told otherwise. */
export const TRACED_RUNS = 20;
export const MAX_TRACED_RUNS = 200;

/** What state holds for the key in one resource of the pipeline. */
export interface TracedState {
  /** The pipeline's entity (its name in the pipeline file) and the resource it writes. */
  entity: string;
  resource: string;
  /** Content hash of what was delivered; '' for a deleted entity. */
  hash: string;
  version: number;
  /** The entity was deleted (state keeps a tombstone). */
  deleted: boolean;
  /**
   * The run that committed this version, and when (between the run's first and last commit of
   * it; the same time for an item a replay committed). Absent for state committed before Ferry
   * recorded it.
   */
  committed?: { runId: string; from: string; to: string };
}

/**
 * What a change planned for the key came to: delivered (state holds it), replayed (state holds it,
 * delivered by a replay of its dead letter), dead_lettered (a dead letter waits), pending (its run
 * is still going), superseded (a later version is committed), or not_delivered (its run ended
 * without it: cancelled, or its dead letter purged).
 */
export type ChangeOutcome =
  'delivered' | 'replayed' | 'dead_lettered' | 'pending' | 'superseded' | 'not_delivered';

export interface TracedChange {
  runId: string;
  kind: RunRecord['kind'];
  trigger: RunRecord['trigger'];
  runStatus: RunRecord['status'];
  startedAt: string;
  finishedAt?: string;
  operationId: string;
  resource?: string;
  change: ChangeKind;
  outcome: ChangeOutcome;
  /** The dead letter of this change, when one waits. */
  deadLetterId?: string;
  /** The OpenTelemetry trace of its run (its jobs and requests), when traces were exported. */
  traceId?: string;
  /** That trace's page in the tracing backend (telemetry.traceUrl), when configured. */
  traceUrl?: string;
}

/** A row with the key that a recent run rejected (a bad price, an empty required field...). */
export interface TracedRejection {
  runId: string;
  file: string;
  line: number;
  field?: string;
  message: string;
  startedAt: string;
}

export interface EntityTrace {
  pipeline: string;
  /** As given: a key is a string (leading zeros are part of it). */
  key: string;
  /** The key's state in the first entity of the pipeline (in file order) that holds it. */
  state?: TracedState;
  /** Its state in every entity of the pipeline that holds it (a product and its prices). */
  states: TracedState[];
  /** Changes planned for it by the `runsSearched` most recent runs of the pipeline, newest first. */
  changes: TracedChange[];
  runsSearched: number;
  /** Rows with this key the searched runs rejected, newest run first. */
  rejected: TracedRejection[];
  /** Dead letters of the pipeline with an item of this key, oldest first. */
  deadLetters: DeadLetterRow[];
}

export interface TraceContext {
  config: FerryConfig;
  redis: RedisClient;
  keys: DeliveryKeys;
  dlq: DeadLetterStore;
}

/**
 * The pipeline a trace is about, by its name on a platform (`catalog`, `catalog@north`);
 * NotFoundError (exit 2, HTTP 404) when there is no such pipeline, or when the name is a fan-out's
 * (one pipeline per platform: it names them).
 */
export function tracedPipeline(config: FerryConfig, name: string): PipelineDefinition {
  const names = allPipelineTargets(config);
  const base = splitPipelineName(name).pipeline;
  const known = pipelineNames(config).includes(base);
  const named = known ? pipelineTarget(name, config) : undefined;
  if (named !== undefined) return loadPipeline(named, config);
  const mine = known ? pipelineTargets(name, config) : [];
  throw new NotFoundError(
    'pipeline',
    name,
    mine.length > 1
      ? `It delivers to several platforms, a pipeline on each: name one (${mine.join(', ')}).`
      : `${didYouMean(name, names).trim()} Pipelines: ${names.join(', ') || 'none'}.`.trim(),
  );
}

/** A trace's page from the configured template (`{traceId}` replaced), or undefined. */
export function traceLink(template: string | undefined, traceId: string): string | undefined {
  return template?.replaceAll('{traceId}', encodeURIComponent(traceId));
}

const iso = (ms: number): string => new Date(ms).toISOString();

async function readStates(
  ctx: TraceContext,
  definition: PipelineDefinition,
  key: string,
): Promise<TracedState[]> {
  const store = createStateStore(ctx.redis, ctx.config.redis.prefix);
  const states: TracedState[] = [];
  const seen = new Set<string>();
  for (const entity of definition.entities) {
    if (seen.has(entity.resource)) continue;
    seen.add(entity.resource);
    const state = (await store.read(definition.name, entity.resource, [key])).get(key);
    if (!state) continue;
    const traced: TracedState = {
      entity: entity.name,
      resource: entity.resource,
      hash: state.hash,
      version: state.version,
      deleted: state.deleted === true,
    };
    const origin = await store.origin(definition.name, entity.resource, key, state.version);
    if (origin) {
      traced.committed = { runId: origin.runId, from: iso(origin.firstAt), to: iso(origin.lastAt) };
    }
    states.push(traced);
  }
  return states;
}

/** The resource each operation of the pipeline writes. */
function resourcesByOperation(definition: PipelineDefinition): Map<string, string> {
  const out = new Map<string, string>();
  for (const entity of definition.entities) {
    for (const ref of Object.values(entity.operations)) {
      if (!out.has(ref.operation.id)) out.set(ref.operation.id, entity.resource);
    }
  }
  return out;
}

function outcomeOf(
  run: RunRecord,
  state: TracedState | undefined,
  deadLetter: DeadLetter | undefined,
): ChangeOutcome {
  if (deadLetter) return 'dead_lettered';
  if (state?.committed?.runId === run.id) return 'delivered';
  // A run's items carry its version (a replay's keep theirs, so only its origin tells).
  if (run.kind === 'sync' && state) {
    if (state.version === run.version) return state.committed ? 'replayed' : 'delivered';
    if (state.version > run.version) return 'superseded';
  }
  return isFinished(run) ? 'not_delivered' : 'pending';
}

export async function traceEntity(
  ctx: TraceContext,
  definition: PipelineDefinition,
  key: string,
  runs = TRACED_RUNS,
): Promise<EntityTrace> {
  const pipeline = definition.name;
  const states = await readStates(ctx, definition, key);
  const entries = await ctx.dlq.list({ pipeline, key });
  const recent = await recentRuns(ctx.redis, ctx.keys, { pipeline, limit: runs });
  const planned = await plannedChanges(
    ctx.redis,
    ctx.keys,
    recent.map((r) => ({ id: r.id, operationIds: r.stages.flatMap((s) => s.operationIds) })),
    key,
  );
  const rejectedByRun = await rejectedRows(
    ctx.redis,
    ctx.keys,
    recent.map((r) => r.id),
    key,
  );
  const rejected = recent.flatMap((run, i) =>
    (rejectedByRun[i] ?? []).map((row): TracedRejection => ({
      runId: run.id,
      ...row,
      startedAt: iso(run.createdAt),
    })),
  );
  const resourceOf = resourcesByOperation(definition);
  const changes: TracedChange[] = [];
  recent.forEach((run, i) => {
    for (const { operationId, change } of planned[i] ?? []) {
      const resource = resourceOf.get(operationId);
      const state = states.find((s) => s.resource === resource);
      const deadLetter = entries.find((e) => e.runId === run.id && e.operationId === operationId);
      const traced: TracedChange = {
        runId: run.id,
        kind: run.kind,
        trigger: run.trigger,
        runStatus: run.status,
        startedAt: iso(run.createdAt),
        operationId,
        change,
        outcome: outcomeOf(run, state, deadLetter),
      };
      if (run.finishedAt) traced.finishedAt = iso(run.finishedAt);
      if (resource) traced.resource = resource;
      if (deadLetter) traced.deadLetterId = deadLetter.id;
      if (run.traceId) {
        traced.traceId = run.traceId;
        const link = traceLink(ctx.config.telemetry.traceUrl, run.traceId);
        if (link) traced.traceUrl = link;
      }
      changes.push(traced);
    }
  });
  const trace: EntityTrace = {
    pipeline,
    key,
    states,
    changes,
    runsSearched: recent.length,
    rejected,
    deadLetters: entries.map(deadLetterRow),
  };
  if (states[0]) trace.state = states[0];
  return trace;
}
