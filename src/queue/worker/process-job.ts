/**
 * One delivery job, start to settle:
 *   skip it if its run is over or it already settled -> drop items already applied or stale ->
 *   send each request (send-request.ts) -> commit what the platform confirmed -> dead-letter what
 *   it refused -> retry the job for what failed transiently (until its last attempt, which
 *   dead-letters it) -> settle the job into its run, releasing the next stage when it is due.
 * State advances only for confirmed items, and before the job settles, so nothing is counted
 * delivered that is not committed.
 */
import type { Job } from 'bullmq';
import type { StateItem } from '../../pipeline/types.js';
import { buildDeadLetter, type DeadLetterContext } from '../dlq/build-dead-letter.js';
import type { DeadLetter } from '../dlq/dead-letter.js';
import { DeliveryDeferredError, WorkerStoppedError } from '../errors.js';
import {
  addToTally,
  type DeliveryJobData,
  type JobPayload,
  type JobRequest,
  type Tally,
} from '../job-data.js';
import { queueName, type Lane } from '../keys.js';
import { narrowRequest } from '../request-body.js';
import { classifyItems, type Classified } from './classify-items.js';
import { bindingOf, type DeliveryDeps } from './delivery-deps.js';
import { jobWork } from './job-work.js';
import type { Deferral, Refusal } from './outcomes.js';
import { sendRequest, type SendContext } from './send-request.js';
import { settleAndRelease } from './settle-and-release.js';

/** After this many requests in a row failed transiently, the rest of a bundle waits for the retry. */
const DEFER_AFTER = 3;

interface Outcomes {
  confirmed: { operationId: string; item: StateItem }[];
  refused: Refusal[];
  deferred: Deferral[];
}

async function sendAll(
  requests: readonly JobRequest[],
  ctx: SendContext,
  out: Outcomes,
): Promise<void> {
  let inARow = 0;
  for (const request of requests) {
    const last = out.deferred[out.deferred.length - 1];
    if (inARow >= DEFER_AFTER && last) {
      out.deferred.push({ ...last, request });
      continue;
    }
    const result = await sendRequest(request, ctx);
    for (const item of result.confirmed) {
      out.confirmed.push({ operationId: request.operationId, item });
    }
    out.refused.push(...result.refused);
    out.deferred.push(...result.deferred);
    inARow = result.deferred.length > 0 && result.confirmed.length === 0 ? inARow + 1 : 0;
  }
}

async function commitConfirmed(
  deps: DeliveryDeps,
  data: DeliveryJobData,
  confirmed: Outcomes['confirmed'],
  tally: Tally,
): Promise<void> {
  if (confirmed.length === 0) return;
  const opOf = new Map(confirmed.map((c) => [c.item, c.operationId]));
  const { committed, stale } = await deps.state.commit(
    data.pipeline,
    confirmed.map((c) => c.item),
    data.runId,
  );
  for (const item of committed) addToTally(tally, opOf.get(item) ?? '', 'delivered', 1);
  for (const item of stale) addToTally(tally, opOf.get(item) ?? '', 'stale', 1);
}

/**
 * A run's job on its first start: nothing of it was sent before, and its items carry the run's
 * version, which nothing can have committed yet (each item is in one job of one run, and a pipeline
 * has one run at a time), so reading their state first could only find nothing to drop. A retry,
 * a stalled job taken over, or a replay reads state before sending.
 */
function firstStart(job: Job<DeliveryJobData>, work: JobPayload): boolean {
  return (
    job.attemptsStarted <= 1 &&
    job.attemptsMade === 0 &&
    job.stalledCounter === 0 &&
    job.data.requests === undefined &&
    job.data.replayOf === undefined &&
    work.replayOf === undefined
  );
}

function laneOf(job: Job<DeliveryJobData>): Lane {
  return job.queueName === queueName('interactive') ? 'interactive' : 'bulk';
}

export async function processJob(job: Job<DeliveryJobData>, deps: DeliveryDeps): Promise<void> {
  const data = job.data;
  const jobId = job.id ?? '';
  const { config } = deps;
  const work = await jobWork(deps.redis, deps.keys, jobId, data);
  if (!work) return; // its run is over, or it settled already

  const tally: Tally = structuredClone(data.tally ?? {});
  let deadLetters = data.deadLetters ?? 0;
  const classified: Classified = firstStart(job, work)
    ? { send: work.requests, applied: [], stale: [] }
    : await classifyItems(deps.state, data.pipeline, work.requests);
  for (const { operationId } of classified.applied) addToTally(tally, operationId, 'delivered', 1);
  for (const { operationId } of classified.stale) addToTally(tally, operationId, 'stale', 1);

  const out: Outcomes = { confirmed: [], refused: [], deferred: [] };
  const sendCtx: SendContext = {
    client: deps.client,
    binding: (id) => bindingOf(deps, id),
    gate: deps.gate,
    lane: laneOf(job),
    budget: config.delivery.retryBudget,
  };
  try {
    await sendAll(classified.send, sendCtx, out);
  } finally {
    // Whatever happens next, what the platform confirmed is committed.
    await commitConfirmed(deps, data, out.confirmed, tally);
  }
  // Its requests were abandoned by a stopping worker: what failed did not fail on the platform.
  if (deps.stopping?.aborted) throw new WorkerStoppedError(jobId);

  const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  const dlCtx: DeadLetterContext = {
    runId: data.runId,
    pipeline: data.pipeline,
    jobId,
    attempts: job.attemptsMade + 1,
    idempotencyHeader: config.interface.idempotencyHeader,
  };
  if (work.replayOf?.[0]) dlCtx.replayOf = work.replayOf[0];
  const now = Date.now();
  const letter = (request: JobRequest, failure: Refusal | Deferral): DeadLetter =>
    buildDeadLetter(dlCtx, bindingOf(deps, request.operationId), request, failure, now);
  const entries = out.refused.map((r) => letter(narrowRequest(r.request, r.items), r));
  if (lastAttempt) entries.push(...out.deferred.map((d) => letter(d.request, d)));
  await deps.dlq.add(entries);
  for (const e of entries) addToTally(tally, e.operationId, 'failed', e.items.length);
  deadLetters += entries.length;

  if (!lastAttempt && out.deferred.length > 0) {
    const next: DeliveryJobData = {
      ...data,
      requests: out.deferred.map((d) => d.request),
      tally,
      deadLetters,
    };
    if (work.replayOf) next.replayOf = work.replayOf;
    await job.updateData(next);
    throw new DeliveryDeferredError(out.deferred.length, out.deferred[0]?.message ?? '');
  }

  if (work.replayOf) await deps.dlq.remove(work.replayOf);
  await settleAndRelease(deps, { ...data, id: jobId, lane: laneOf(job) }, tally, deadLetters);
}
