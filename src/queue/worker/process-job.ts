/**
 * One delivery job, start to settle:
 *   skip it if its run is over or it already settled; wait if its pipeline is blocked, or block it
 *   and wait if this worker is configured for another platform than its run's; count it
 *   cancelled if its run is being cancelled -> drop items already applied or stale -> send each
 *   request (send-request.ts) -> commit what the platform confirmed -> dead-letter what it
 *   refused -> hold what the platform refused to everyone (breaker.ts: the job waits, no attempt
 *   spent, once the pipeline is blocked) -> retry the job for what failed transiently (until its
 *   last attempt, which dead-letters it) -> settle the job into its run, releasing the next stage
 *   when it is due.
 * State advances only for confirmed items, and before the job settles, so nothing is counted
 * delivered that is not committed.
 */
import { DelayedError, type Job } from 'bullmq';
import type { StateItem } from '../../pipeline/index.js';
import { buildDeadLetter, type DeadLetterContext } from '../dlq/build-dead-letter.js';
import {
  type DeadLetter,
  DeliveryDeferredError,
  RateWaitError,
  WorkerStoppedError,
  addTally,
  addToTally,
  countProgress,
  type DeliveryJobData,
  type JobPayload,
  type JobRequest,
  type Tally,
  queueName,
  type Lane,
  runJobId,
} from '../../runs/index.js';
import { narrowRequest } from '../request-body.js';
import { classifyItems, type Classified } from './classify-items.js';
import { bindingOf, type DeliveryDeps } from './delivery-deps.js';
import { jobWork } from './job-work.js';
import { markDeadLettered } from './job-span.js';
import { deliveredItems } from './delivered-items.js';
import { isPlatformNo, notSentAfter, type Deferral, type Held, type Refusal } from './outcomes.js';
import { sendRequest, type SendContext } from './send-request.js';
import { settleAndRelease } from './settle-and-release.js';

/** After this many requests in a row failed transiently, the rest of a bundle waits for the retry. */
const DEFER_AFTER = 3;
/** How often a job of a blocked pipeline looks again (a probe or a resume lets it go). */
const BLOCKED_RECHECK_MS = 2_000;

interface Outcomes {
  confirmed: { operationId: string; item: StateItem; request: JobRequest }[];
  refused: Refusal[];
  deferred: Deferral[];
  held: Held[];
  /** The pipeline's delivery is blocked: what is left waits. */
  blocked: boolean;
  /** A checkpoint saw the run being cancelled (or gone): `unsent` were not sent. */
  cancelling: boolean;
  unsent: readonly JobRequest[];
  /**
   * Not sent: the worker is stopping, or (several platforms) the platform's rate makes them wait
   * `handBackMs`; they go back to the queue.
   */
  handBack: readonly JobRequest[];
  handBackMs: number;
}

interface Sending {
  deps: DeliveryDeps;
  data: DeliveryJobData;
  ctx: SendContext;
  /** This job carries the blocked pipeline's probe: one request, then it resumes or waits. */
  probe: boolean;
  /**
   * On a job's last attempt, `attempts` refusals in a row block too: its request was refused on
   * every attempt and nothing passed between them, so the platform refuses everyone, whatever
   * the threshold (a small run must not dead-letter its items for a wrong credential).
   */
  blockAt?: number;
  /** A long job's checkpoints. */
  progress: Progress;
}

/**
 * A long job's checkpoint, every `everyMs` (delivery.progressEveryMs): what the platform confirmed
 * so far is committed and counted into the run, so a job of a hundred requests under a rate limit
 * (minutes) shows its deliveries as they happen, and a worker killed during it sends again only
 * what came after; and the run's status is read, so that a run being cancelled sends nothing more
 * within about that long (`ferry cancel` says so). A job quicker than that does both once: its
 * commit at its end, the status at its start (job-work.ts).
 */
interface Progress {
  dueAt: number;
  everyMs: number;
  /** Commits and counts what the platform confirmed so far. */
  save(): Promise<void>;
  /** Saves; resolves to whether the run still wants the job's requests (running or blocked). */
  checkpoint(): Promise<boolean>;
}

/** What a request's answers say to the breaker; true when the pipeline is (now) blocked. */
async function tellBreaker(
  s: Sending,
  request: JobRequest,
  result: Awaited<ReturnType<typeof sendRequest>>,
): Promise<boolean> {
  const { breaker, logger } = s.deps;
  const { pipeline, runId } = s.data;
  const [held] = result.held;
  if (held) {
    const verdict = await breaker.refused(
      pipeline,
      runId,
      held.reason,
      request.operationId,
      s.blockAt,
    );
    if (verdict === 'blocked-now') {
      logger.warn(
        { pipeline, runId, reason: held.reason },
        'delivery blocked: the platform refuses every request',
      );
      await s.deps.onBlocked?.(runId);
    }
    return verdict !== 'counting';
  }
  if (result.confirmed.length > 0 || result.refused.length > 0) {
    if (await breaker.passed(pipeline, runId, s.probe)) {
      logger.info({ pipeline, runId }, 'delivery resumed: the platform answered the probe');
    }
  }
  return false;
}

async function sendAll(requests: readonly JobRequest[], s: Sending, out: Outcomes): Promise<void> {
  let inARow = 0;
  /** The last of those `inARow` requests' own failure. */
  let lastFailure: Deferral | undefined;
  let probe = s.probe;
  for (let i = 0; i < requests.length; i++) {
    const request = requests[i] as JobRequest;
    // A stopping worker hands the rest back (a probe goes first: the breaker waits for it).
    if (s.deps.draining?.aborted && !probe) {
      await s.progress.save();
      out.handBack = requests.slice(i);
      return;
    }
    // A refusal seen here may have blocked the pipeline from another job meanwhile.
    if (!out.blocked && !probe && s.deps.breaker.suspect(s.data.pipeline)) {
      out.blocked = await s.deps.breaker.isBlocked(s.data.pipeline);
    }
    if (out.blocked) {
      out.deferred.push({
        request,
        errorCode: 'FERRY_DELIVERY_BLOCKED',
        message: 'delivery blocked',
      });
      continue;
    }
    if (inARow >= DEFER_AFTER && lastFailure) {
      out.deferred.push(notSentAfter(lastFailure, inARow, request));
      continue;
    }
    let result: Awaited<ReturnType<typeof sendRequest>>;
    try {
      result = await sendRequest(request, s.ctx);
    } catch (error) {
      if (!(error instanceof RateWaitError)) throw error;
      // Its platform will not take it for a while: the slot goes to other platforms' jobs.
      await s.progress.save();
      out.handBack = requests.slice(i);
      out.handBackMs = error.waitMs;
      return;
    }
    // A request with a part to send again (a transient failure, a held refusal) is not done yet.
    s.deps.sent.count(s.data.runId, result.deferred.length === 0 && result.held.length === 0);
    for (const item of result.confirmed) {
      out.confirmed.push({ operationId: request.operationId, item, request });
    }
    // Most answers confirm all: no spread of empty lists.
    if (result.refused.length > 0) out.refused.push(...result.refused);
    if (result.deferred.length > 0) out.deferred.push(...result.deferred);
    if (result.held.length > 0) out.held.push(...result.held);
    // The breaker hears of an answer only when it can change something: a refusal of everyone,
    // a probe, or a refusal seen before (a healthy delivery costs no promise here).
    if (result.held.length > 0 || probe || s.deps.breaker.suspect(s.data.pipeline)) {
      out.blocked = await tellBreaker(probe === s.probe ? s : { ...s, probe }, request, result);
    }
    probe = false;
    const failed = result.confirmed.length === 0 ? result.deferred.at(-1) : undefined;
    inARow = failed ? inARow + 1 : 0;
    lastFailure = failed;
    if (Date.now() >= s.progress.dueAt) {
      s.progress.dueAt = Date.now() + s.progress.everyMs;
      if (!(await s.progress.checkpoint())) {
        out.cancelling = true;
        out.unsent = requests.slice(i + 1);
        return;
      }
    }
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
  // Entries that rode along (item.also) are committed with their item but counted with it.
  const { committed, stale } = await deps.history.commit(
    data.pipeline,
    data.runId,
    deliveredItems(confirmed),
  );
  for (const item of committed) {
    const op = opOf.get(item);
    if (op !== undefined) addToTally(tally, op, 'delivered', 1);
  }
  for (const item of stale) {
    const op = opOf.get(item);
    if (op !== undefined) addToTally(tally, op, 'stale', 1);
  }
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

/** Items of the job's requests counted cancelled: its run was cancelled before it sent them. */
function cancelledTally(requests: readonly JobRequest[], tally: Tally): Tally {
  for (const r of requests) addToTally(tally, r.operationId, 'cancelled', r.items.length);
  return tally;
}

export async function processJob(
  job: Job<DeliveryJobData>,
  deps: DeliveryDeps,
  token?: string,
): Promise<void> {
  const data = job.data;
  const jobId = runJobId(job);
  const { config } = deps;
  const lane: Lane = job.queueName === queueName('interactive') ? 'interactive' : 'bulk';
  const found = await jobWork(deps.redis, deps.keys, jobId, data);
  if (found.kind === 'none') return; // its run is over, or it settled already
  if (found.kind === 'blocked') return await waitBlocked(job, token);
  // Only a worker of the platform its run was planned for delivers a job, else the other
  // platform's confirmations would be committed into state bound to the run's; a run recorded
  // before runs named their platform goes anywhere, as it did.
  const runPlatform = found.kind === 'cancelled' ? undefined : found.platform;
  if (runPlatform !== undefined && runPlatform !== deps.platform) {
    await blockOtherPlatform(deps, data, runPlatform);
    return await waitBlocked(job, token);
  }
  const work = found.payload;
  const tally: Tally = structuredClone(data.tally ?? {});
  let deadLetters = data.deadLetters ?? 0;
  if (found.kind === 'cancelled') {
    cancelledTally(work.requests, tally);
    await settleAndRelease(deps, { ...data, id: jobId, lane }, tally, deadLetters);
    return;
  }

  const classified: Classified = firstStart(job, work)
    ? { send: work.requests, applied: [], stale: [] }
    : await classifyItems(deps.state, data.pipeline, work.requests);
  for (const { operationId } of classified.applied) addToTally(tally, operationId, 'delivered', 1);
  for (const { operationId } of classified.stale) addToTally(tally, operationId, 'stale', 1);

  const out: Outcomes = {
    confirmed: [],
    refused: [],
    deferred: [],
    held: [],
    blocked: false,
    cancelling: false,
    unsent: [],
    handBack: [],
    handBackMs: 0,
  };
  const sendCtx: SendContext = {
    client: deps.client,
    binding: (id) => bindingOf(deps, id),
    gate: deps.gate,
    lane,
    budget: config.delivery.retryBudget,
  };
  if (deps.yieldAfterMs !== undefined) sendCtx.yieldAfterMs = deps.yieldAfterMs;
  const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  const everyMs = config.delivery.progressEveryMs;
  const progress: Progress = {
    dueAt: Date.now() + everyMs,
    everyMs,
    async save() {
      if (out.confirmed.length === 0) return;
      const part: Tally = {};
      await commitConfirmed(deps, data, out.confirmed.splice(0), part);
      await countProgress(deps.redis, deps.keys, {
        runId: data.runId,
        pipeline: data.pipeline,
        jobId,
        tally: part,
      });
      addTally(tally, part);
    },
    async checkpoint() {
      await this.save();
      const status = await deps.redis.hget(deps.keys.run(data.runId), 'status');
      return status === 'running' || status === 'blocked';
    },
  };
  const sending: Sending = { deps, data, ctx: sendCtx, probe: found.kind === 'probe', progress };
  if (lastAttempt) sending.blockAt = job.opts.attempts ?? 1;
  try {
    await sendAll(classified.send, sending, out);
  } finally {
    // Whatever happens next, what the platform confirmed is committed.
    await commitConfirmed(deps, data, out.confirmed, tally);
  }
  // Its requests were abandoned by a stopping worker: what failed did not fail on the platform.
  if (deps.stopping?.aborted) throw new WorkerStoppedError(jobId);

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
  // Before the dead letters: once a run sees them, its next plan must know of the refusals.
  await deps.refusals.record(
    data.pipeline,
    out.refused.filter(isPlatformNo).flatMap((r) => r.items),
  );
  // Held requests go on waiting while the pipeline is blocked; below the breaker's threshold
  // they are failures like any other for the job's last attempt.
  let waiting = [...out.deferred, ...out.held];
  if (out.cancelling) {
    // The run is being cancelled: what this job did not send, or would send again, is cancelled.
    cancelledTally([...out.unsent, ...waiting.map((d) => d.request)], tally);
    waiting = [];
  }
  // A job handed back spends no attempt: what it would send again goes back with it.
  const handingBack = out.handBack.length > 0;
  if (lastAttempt && !out.blocked && !handingBack) {
    entries.push(...waiting.map((d) => letter(d.request, d)));
  }
  // A replay closes the entries it replays before its own failures are written: an item refused
  // again gets a new entry, so a replayed id never names anything again (docs/DELIVERY.md).
  if (work.replayOf && entries.length > 0) await deps.dlq.remove(work.replayOf);
  await deps.dlq.add(entries);
  markDeadLettered(
    entries.length,
    entries.reduce((n, e) => n + e.items.length, 0),
  );
  for (const e of entries) addToTally(tally, e.operationId, 'failed', e.items.length);
  deadLetters += entries.length;

  if (handingBack) {
    const rest = [...out.handBack, ...waiting.map((d) => d.request)];
    const back: DeliveryJobData = { ...data, requests: rest, tally, deadLetters };
    if (work.replayOf) back.replayOf = work.replayOf;
    await job.updateData(back);
    return await handBack(job, token, out.handBackMs);
  }
  if ((out.blocked || !lastAttempt) && waiting.length > 0) {
    const next: DeliveryJobData = {
      ...data,
      requests: waiting.map((d) => d.request),
      tally,
      deadLetters,
    };
    if (work.replayOf) next.replayOf = work.replayOf;
    await job.updateData(next);
    if (out.blocked) return await waitBlocked(job, token);
    throw new DeliveryDeferredError(waiting.length, waiting[0]?.message ?? '');
  }

  if (work.replayOf) await deps.dlq.remove(work.replayOf);
  await settleAndRelease(deps, { ...data, id: jobId, lane }, tally, deadLetters);
}

/** Blocks the run's pipeline: nothing sent, nothing committed, no attempt spent (the job waits). */
async function blockOtherPlatform(
  deps: DeliveryDeps,
  data: DeliveryJobData,
  runPlatform: string,
): Promise<void> {
  const { pipeline, runId } = data;
  const verdict = await deps.breaker.otherPlatform(pipeline, runId, deps.platform, runPlatform);
  if (verdict === 'blocked-now') {
    deps.logger.warn(
      { pipeline, runId, worker: deps.platform, run: runPlatform },
      'delivery blocked: this worker is configured for another platform than the run',
    );
    await deps.onBlocked?.(runId);
  }
}

/**
 * A job goes back to the queue, spending no attempt (BullMQ's manual delay): a stopping worker's
 * at once for another worker, one its platform's rate holds back for `ms` (with a jitter, so the
 * jobs handed back together do not all come back at once); the rest of its requests are in its data.
 */
export async function handBack(
  job: Job<DeliveryJobData>,
  token: string | undefined,
  ms = 0,
): Promise<never> {
  const jitter = ms > 0 ? Math.floor(Math.random() * Math.min(ms, 200)) : 0;
  await job.moveToDelayed(Date.now() + ms + jitter, token);
  throw new DelayedError();
}

/** The job waits while its pipeline is blocked, spending no attempt (BullMQ's manual delay). */
async function waitBlocked(job: Job<DeliveryJobData>, token: string | undefined): Promise<never> {
  const jitter = Math.floor(Math.random() * 500);
  await job.moveToDelayed(Date.now() + BLOCKED_RECHECK_MS + jitter, token);
  throw new DelayedError();
}
