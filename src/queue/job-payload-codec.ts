/**
 * How a job's payload is kept in its run's payload hash: the requests without their payloads as
 * JSON on the first line, then each request's `payloadsJson` on a line of its own (JSON text has
 * no raw line breaks). The payloads' JSON, made once by the planner, is thus stored and sent as it
 * is: neither the planner nor a worker parses or serialises a payload object again on the way.
 */
import type { DeliveryItem } from '../pipeline/types.js';
import { stateItem, type JobPayload, type JobRequest } from './job-data.js';

type StoredRequest = Omit<JobRequest, 'payloadsJson'>;

interface StoredHead {
  requests: StoredRequest[];
  replayOf?: string[];
}

export function encodeJobPayload(payload: JobPayload): string {
  const head: StoredHead = {
    requests: payload.requests.map((r) => ({
      operationId: r.operationId,
      pathParams: r.pathParams,
      idempotencyKey: r.idempotencyKey,
      items: r.items,
    })),
  };
  if (payload.replayOf) head.replayOf = payload.replayOf;
  let text = JSON.stringify(head);
  for (const r of payload.requests) text += `\n${r.payloadsJson}`;
  return text;
}

/**
 * A payload written before this format (plain JSON, items with their payloads) is read too, so a
 * run in progress survives an upgrade of its workers: an operation addressed by path parameters
 * writes one entity (its body is the payload), any other takes the array of its items' payloads.
 */
function decodeEarlier(text: string): JobPayload {
  const payload = JSON.parse(text) as {
    requests: (Omit<JobRequest, 'payloadsJson' | 'items'> & { items: DeliveryItem[] })[];
    replayOf?: string[];
  };
  const out: JobPayload = {
    requests: payload.requests.map((r) => {
      const payloads = r.items.map((i) => i.payload);
      const entity = Object.keys(r.pathParams).length > 0 && payloads.length === 1;
      return {
        operationId: r.operationId,
        pathParams: r.pathParams,
        idempotencyKey: r.idempotencyKey,
        items: r.items.map(stateItem),
        payloadsJson: JSON.stringify(entity ? payloads[0] : payloads),
      };
    }),
  };
  if (payload.replayOf) out.replayOf = payload.replayOf;
  return out;
}

export function decodeJobPayload(text: string): JobPayload {
  if (!text.includes('\n')) return decodeEarlier(text);
  const lines = text.split('\n');
  const head = JSON.parse(lines[0] as string) as StoredHead;
  const payload: JobPayload = {
    requests: head.requests.map((r, i) => ({ ...r, payloadsJson: lines[i + 1] ?? '' })),
  };
  if (head.replayOf) payload.replayOf = head.replayOf;
  return payload;
}
