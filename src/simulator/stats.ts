/** Counters of /__sim/stats and the bounded log of /__sim/requests. */
import type { RequestRecord, SimStats } from './types.js';

export const REQUEST_LOG_SIZE = 10_000;

type Counter = Exclude<keyof SimStats, 'byOperation' | 'faults' | 'seed'>;
type FaultCounter = keyof SimStats['faults'];

export class SimStatsRecorder {
  private counters!: Omit<SimStats, 'seed'>;
  /** Ring buffer: `next` is where the next record goes once the buffer is full. */
  private log: RequestRecord[] = [];
  private next = 0;

  constructor(private readonly seed: number) {
    this.reset();
  }

  reset(): void {
    this.counters = {
      requests: 0,
      byOperation: {},
      applied: 0,
      appliedItems: 0,
      replayed: 0,
      rejected: 0,
      duplicates: 0,
      rateLimited: 0,
      inProgress: 0,
      unauthorized: 0,
      notFound: 0,
      faults: { failed: 0, reset: 0, appliedThenFailed: 0 },
    };
    this.log = [];
    this.next = 0;
  }

  add(counter: Counter, by = 1): void {
    this.counters[counter] += by;
  }

  fault(counter: FaultCounter): void {
    this.counters.faults[counter] += 1;
  }

  request(operationId: string | undefined): void {
    this.counters.requests += 1;
    if (operationId) {
      const byOp = this.counters.byOperation;
      byOp[operationId] = (byOp[operationId] ?? 0) + 1;
    }
  }

  record(entry: RequestRecord): void {
    if (this.log.length < REQUEST_LOG_SIZE) {
      this.log.push(entry);
      return;
    }
    this.log[this.next] = entry;
    this.next = (this.next + 1) % REQUEST_LOG_SIZE;
  }

  snapshot(): SimStats {
    const c = this.counters;
    return { ...c, byOperation: { ...c.byOperation }, faults: { ...c.faults }, seed: this.seed };
  }

  /** The logged requests, oldest first; at most `limit` of the newest. */
  requests(limit = REQUEST_LOG_SIZE): RequestRecord[] {
    const ordered = [...this.log.slice(this.next), ...this.log.slice(0, this.next)];
    return ordered.slice(Math.max(0, ordered.length - limit));
  }
}
