/**
 * Planned requests -> delivery jobs. A batch request (up to maxItems items) is a job of its own; a
 * request that carries one entity (a product's prices) is bundled with others of its stage, so the
 * queue's cost per job (BullMQ moves ~5,500 jobs/s here) does not bound delivery. A job's id is its
 * request's idempotency key, or a hash of its requests' keys, so enqueueing it twice is a no-op.
 * A planned request goes into its job as it is, payloads and all: the job's payload is encoded
 * from what a job keeps (job-payload-codec.ts) when its job is written, so no copy is made first.
 */
import type { DeliveryRequest } from '../pipeline/index.js';
import { hashParts } from '../base/index.js';
import type { JobRequest, StagedJob } from '../runs/index.js';

export function bundleId(requests: readonly JobRequest[]): string {
  if (requests.length === 1) return (requests[0] as JobRequest).idempotencyKey;
  return `b${hashParts(requests.map((r) => r.idempotencyKey))}`;
}

/** Collects one run's requests, stage by stage, and hands out jobs as they fill. */
export class JobBundler {
  private readonly open = new Map<number, JobRequest[]>();

  constructor(
    private readonly bundleSize: number,
    private readonly emit: (job: StagedJob) => void,
  ) {}

  add(stage: number, request: DeliveryRequest): void {
    if (request.items.length > 1 || this.bundleSize === 1) {
      this.emitJob(stage, [request]);
      return;
    }
    const bundle = this.open.get(stage) ?? [];
    bundle.push(request);
    this.open.set(stage, bundle);
    if (bundle.length >= this.bundleSize) {
      this.open.delete(stage);
      this.emitJob(stage, bundle);
    }
  }

  /** Emits the partly filled bundles (the end of the plan). */
  finish(): void {
    for (const [stage, bundle] of this.open) if (bundle.length > 0) this.emitJob(stage, bundle);
    this.open.clear();
  }

  private emitJob(stage: number, requests: JobRequest[]): void {
    this.emit({ id: bundleId(requests), stage, requests });
  }
}
