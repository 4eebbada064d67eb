/**
 * What a described platform refuses before it applies anything (`--openapi`): more items than the
 * description's maxItems (413, as the default simulator answers, so Ferry splits the batch), then a
 * request that breaks the description: 400 `VALIDATION_FAILED` with each violation in `details`.
 */
import type { Binding } from '../interface/index.js';
import { deleteItems, unwrapEnvelope } from './batch-writes.js';
import { errorResponse, jsonResponse, type SimResponse } from './http-io.js';
import type { RequestCheck, RequestInput, RequestViolation } from './request-check.js';

/** Items in a collection write (the body's array, or a DELETE's query keys); 0 for other operations. */
function itemCount(binding: Binding, body: unknown, query: URLSearchParams): number {
  const kind = binding.operation.kind;
  if (kind !== 'upsert' && kind !== 'patch' && kind !== 'delete') return 0;
  const items = unwrapEnvelope(binding, body);
  const listed = kind === 'delete' ? deleteItems(items, query, binding) : items;
  return Array.isArray(listed) ? listed.length : 0;
}

function inWords(v: RequestViolation): string {
  const where = v.in === 'body' ? 'body' : `${v.in} parameter ${v.name ?? ''}`;
  return `${where}${v.instancePath ? ` ${v.instancePath}` : ''}: ${v.message}`;
}

export function describedRefusal(
  binding: Binding,
  check: RequestCheck,
  input: RequestInput,
): SimResponse | undefined {
  const count = itemCount(binding, input.body, input.url.searchParams);
  if (count > binding.maxItems) {
    const message = `${count} items in one request; the description allows at most ${binding.maxItems}`;
    return errorResponse(413, 'PAYLOAD_TOO_LARGE', message);
  }
  const details = check(input);
  if (details.length === 0) return undefined;
  const first = inWords(details[0]!);
  const more = details.length > 1 ? ` (and ${details.length - 1} more in details)` : '';
  const message = `the request does not fit the description: ${first}${more}`;
  return jsonResponse(400, { error: { code: 'VALIDATION_FAILED', message, details } });
}
