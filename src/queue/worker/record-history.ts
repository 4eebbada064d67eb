/**
 * After a job's confirmed items are committed to state, their payloads go into the payload
 * history (src/state/before-images): what Ferry last delivered, and each change's before-image for
 * `ferry undo`. A request's payloads are parsed once, only for requests with committed items.
 */
import type { DeliveredItem, PayloadHistory, StateItem } from '../../state/index.js';
import type { JobRequest } from '../../runs/index.js';
import { payloadsOf } from '../request-body.js';

export async function recordHistory(
  history: PayloadHistory,
  pipeline: string,
  runId: string,
  committed: readonly StateItem[],
  requestOf: ReadonlyMap<StateItem, JobRequest>,
): Promise<void> {
  // A request's payloads by its items' keys (a split part's items are copies of its items).
  const parsed = new Map<JobRequest, Map<string, unknown>>();
  const delivered: DeliveredItem[] = [];
  for (const item of committed) {
    const request = requestOf.get(item);
    if (!request) continue;
    let payloads = parsed.get(request);
    if (!payloads) {
      const list = payloadsOf(request);
      payloads = new Map(request.items.map((it, i) => [it.key, list[i]]));
      parsed.set(request, payloads);
    }
    delivered.push({ item, payload: payloads.get(item.key) });
  }
  if (delivered.length > 0) await history.record(pipeline, runId, delivered);
}
