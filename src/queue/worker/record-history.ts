/**
 * After a job's confirmed items are committed to state, their payloads go into the payload
 * history (src/state/before-images): what Ferry last delivered, and each change's before-image for
 * `ferry undo`. A request's payloads are parsed once, only for requests with committed items. A
 * price that rode in its product's item (item.also) is recorded as if it had gone by itself: its
 * payload is the `prices` it rode with, so undo restores it like any price.
 */
import type { DeliveredItem, PayloadHistory, StateItem } from '../../state/index.js';
import { riddenPrice } from '../../pipeline/index.js';
import type { JobRequest } from '../../runs/index.js';
import { payloadsOf } from '../request-body.js';

export async function recordHistory(
  history: PayloadHistory,
  pipeline: string,
  runId: string,
  committed: readonly StateItem[],
  confirmed: readonly { item: StateItem; request: JobRequest }[],
): Promise<void> {
  // A request's payloads by its items' keys (a split part's items are copies of its items).
  const parsed = new Map<JobRequest, Map<string, unknown>>();
  const payloadOf = new Map<StateItem, unknown>();
  for (const { item, request } of confirmed) {
    let payloads = parsed.get(request);
    if (!payloads) {
      const list = payloadsOf(request);
      payloads = new Map(request.items.map((it, i) => [it.key, list[i]]));
      parsed.set(request, payloads);
    }
    const payload = payloads.get(item.key);
    payloadOf.set(item, payload);
    for (const riding of item.also ?? []) payloadOf.set(riding, riddenPrice(payload));
  }
  const delivered: DeliveredItem[] = [];
  for (const item of committed) {
    if (payloadOf.has(item)) delivered.push({ item, payload: payloadOf.get(item) });
  }
  if (delivered.length > 0) await history.record(pipeline, runId, delivered);
}
