/**
 * Before sending, each item is checked against state: an item whose version is already committed
 * (its job was processed before, by a worker that died before settling it) is not sent again, and
 * an item older than what state holds is stale (a newer change was applied since) and is dropped.
 * A request that loses items becomes a request of its own (new body, so a new idempotency key).
 */
import type { StateStore } from '../../pipeline/state-store.js';
import { encodeState } from '../../pipeline/state/state-format.js';
import type { DeliveryItem, EntityState } from '../../pipeline/types.js';
import type { JobRequest } from '../job-data.js';
import { subRequest } from '../request-body.js';

export interface Classified {
  send: JobRequest[];
  applied: { operationId: string; item: DeliveryItem }[];
  stale: { operationId: string; item: DeliveryItem }[];
}

function encodedItem(item: DeliveryItem): string {
  return item.kind === 'delete'
    ? encodeState(item.version, '')
    : encodeState(item.version, item.hash, item.fieldHashes);
}

type Verdict = 'send' | 'applied' | 'stale';

function verdict(item: DeliveryItem, state: EntityState | undefined): Verdict {
  if (!state || state.version < item.version) return 'send';
  if (state.version > item.version) return 'stale';
  return encodedItem(item) === encodeState(state.version, state.hash, state.fieldHashes)
    ? 'applied'
    : 'stale';
}

export async function classifyItems(
  state: StateStore,
  pipeline: string,
  requests: readonly JobRequest[],
): Promise<Classified> {
  const keysByResource = new Map<string, Set<string>>();
  for (const request of requests) {
    for (const item of request.items) {
      const keys = keysByResource.get(item.resource) ?? new Set<string>();
      keys.add(item.key);
      keysByResource.set(item.resource, keys);
    }
  }
  const states = new Map<string, Map<string, EntityState>>();
  await Promise.all(
    [...keysByResource].map(async ([resource, keys]) => {
      states.set(resource, await state.read(pipeline, resource, [...keys]));
    }),
  );
  const out: Classified = { send: [], applied: [], stale: [] };
  for (const request of requests) {
    const keep: DeliveryItem[] = [];
    for (const item of request.items) {
      const v = verdict(item, states.get(item.resource)?.get(item.key));
      if (v === 'send') keep.push(item);
      else out[v].push({ operationId: request.operationId, item });
    }
    if (keep.length === request.items.length) out.send.push(request);
    else if (keep.length > 0) out.send.push(subRequest(request, keep));
  }
  return out;
}
