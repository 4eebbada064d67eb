/**
 * Writes a run's jobs to Redis as the planner produces them, so a plan of a million rows is never
 * held in memory: each job's requests go into the run's payload hash (where the worker reads them)
 * and its id onto its stage's list (until the stage is released), and each item's change into the
 * run's changes (run-changes.ts). They expire unless the run starts, so a `ferry run` killed while
 * planning leaves nothing behind for long. A job is encoded as soon as it is pushed and only its
 * strings wait for the next write: the planner's request and item objects die young, which keeps
 * them out of the old generation's collections (docs/BENCHMARKS.md, "Starting a run").
 */
import type { RedisClient } from '../redis/index.js';
import type { StagedJob } from './job-data.js';
import { encodeJobPayload } from './job-payload-codec.js';
import type { DeliveryKeys } from './keys.js';
import { addChangeFields } from './run-changes.js';

const CHUNK = 200;
/** The keys of a run that never started expire after this. */
const PLANNING_TTL_S = 24 * 3600;

export interface StageTotals {
  jobs: number;
  requests: number;
}

export class StageWriter {
  /** What the next write sends: payload hash fields and values, change fields and values, ids. */
  private payloads: string[] = [];
  private changes: string[] = [];
  private stageIds = new Map<number, string[]>();
  private buffered = 0;
  private readonly writes = new Set<Promise<unknown>>();
  private failure: unknown;
  readonly totals = new Map<number, StageTotals>();

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: DeliveryKeys,
    private readonly runId: string,
  ) {}

  push(job: StagedJob): void {
    const totals = this.totals.get(job.stage) ?? { jobs: 0, requests: 0 };
    totals.jobs += 1;
    totals.requests += job.requests.length;
    this.totals.set(job.stage, totals);
    this.payloads.push(job.id, encodeJobPayload(job));
    addChangeFields(this.changes, job);
    const ids = this.stageIds.get(job.stage);
    if (ids) ids.push(job.id);
    else this.stageIds.set(job.stage, [job.id]);
    this.buffered += 1;
    if (this.buffered >= CHUNK) this.write();
  }

  /** Writes what is buffered and waits for every write; throws the first failure. */
  async flush(): Promise<void> {
    this.write();
    await Promise.all(this.writes);
    if (this.failure) throw this.failure;
  }

  /** The run starts: its keys no longer expire. */
  async keep(): Promise<void> {
    const multi = this.redis
      .multi()
      .persist(this.keys.runPayloads(this.runId))
      .persist(this.keys.runChanges(this.runId));
    for (const stage of this.totals.keys()) multi.persist(this.keys.runStage(this.runId, stage));
    await multi.exec();
  }

  /** The run did not start: its keys go. */
  async discard(stageCount: number): Promise<void> {
    await Promise.allSettled(this.writes);
    const lists = Array.from({ length: stageCount }, (_, s) => this.keys.runStage(this.runId, s));
    const changes = this.keys.runChanges(this.runId);
    await this.redis.del(this.keys.runPayloads(this.runId), changes, ...lists);
  }

  private write(): void {
    if (this.buffered === 0) return;
    const payloads = this.keys.runPayloads(this.runId);
    const changes = this.keys.runChanges(this.runId);
    const multi = this.redis.multi();
    multi.hset(payloads, this.payloads).expire(payloads, PLANNING_TTL_S);
    multi.hset(changes, this.changes).expire(changes, PLANNING_TTL_S);
    for (const [stage, ids] of this.stageIds) {
      const list = this.keys.runStage(this.runId, stage);
      multi.rpush(list, ...ids).expire(list, PLANNING_TTL_S);
    }
    this.payloads = [];
    this.changes = [];
    this.stageIds = new Map();
    this.buffered = 0;
    const write = multi
      .exec()
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }
}
