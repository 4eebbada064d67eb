/**
 * Before sending, each item is checked against state: an item whose version is already committed
 * (its job was processed before, by a worker that died before settling it) is not sent again, and
 * an item older than what state holds is stale (a newer change was applied since) and is dropped.
 * A request that loses items becomes a request of its own (new body, so a new idempotency key).
 */
import type { StateStore, ItemVerdict } from '../../state/index.js';
import type { StateItem } from '../../pipeline/index.js';
import type { JobRequest } from '../../runs/index.js';
import { subRequest } from '../request-body.js';

export interface Classified {
  send: JobRequest[];
  applied: { operationId: string; item: StateItem }[];
  stale: { operationId: string; item: StateItem }[];
}

export async function classifyItems(
  state: StateStore,
  pipeline: string,
  requests: readonly JobRequest[],
): Promise<Classified> {
  const verdicts = await state.verdicts(
    pipeline,
    requests.flatMap((r) => r.items),
  );
  const out: Classified = { send: [], applied: [], stale: [] };
  let next = 0;
  for (const request of requests) {
    const keep: StateItem[] = [];
    for (const item of request.items) {
      const v = verdicts[next++] as ItemVerdict;
      if (v === 'send') keep.push(item);
      else out[v].push({ operationId: request.operationId, item });
    }
    if (keep.length === request.items.length) out.send.push(request);
    else if (keep.length > 0) out.send.push(subRequest(request, keep));
  }
  return out;
}
