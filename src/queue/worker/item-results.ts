/**
 * Per-item results in an answer (a 207's, or a 4xx's that names the bad items of a batch), read
 * under the names the description gives them (src/interface/answer-words.ts), and an item the
 * platform refused as a refusal of its own.
 */
import { type ItemResult, refusalWords } from '../../interface/index.js';
import type { StateItem } from '../../pipeline/index.js';
import type { JobRequest } from '../../runs/index.js';
import { EXCERPT_CHARS, platformError, type Refusal } from './outcomes.js';

/** One item the platform refused, as a refusal of its own (its dead letter). */
export function itemRefusal(part: JobRequest, item: StateItem, result: ItemResult): Refusal {
  const own = refusalWords(result.raw, {});
  const words = result.errors.find((e) => e.message)?.message ?? own.words;
  const said = words ?? `the platform answered ${String(result.status ?? 'no status')}`;
  const refusal: Refusal = {
    request: part,
    items: [item],
    bodyExcerpt: (JSON.stringify(result.raw) ?? '').slice(0, EXCERPT_CHARS),
    errorCode: 'FERRY_HTTP_PERMANENT',
    message: `${part.operationId} refused item ${item.key}: ${said}`,
    ...platformError({ ...(words ? { words } : {}), errors: result.errors }),
  };
  if (result.status !== undefined) refusal.status = result.status;
  return refusal;
}
