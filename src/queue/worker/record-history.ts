/**
 * After a job's confirmed items are committed to state, their payloads go into the payload
 * history (src/state/before-images): what Ferry last delivered, and each change's before-image for
 * `ferry undo`. Each payload is kept as the JSON it was sent as, cut out of its request's (only
 * requests with committed items are cut). A price that rode in its product's item (item.also) is
 * recorded as if it had gone by itself: its payload is the `prices` it rode with, so undo restores
 * it like any price.
 */
import type { DeliveredItem, PayloadHistory, StateItem } from '../../state/index.js';
import { riddenPrice } from '../../pipeline/index.js';
import { jsonArrayItems, parseExact, stringifyExact } from '../../base/index.js';
import type { JobRequest } from '../../runs/index.js';

/** The JSON of each of the request's payloads by its item's key. */
function payloadTexts(request: JobRequest): Map<string, string | undefined> {
  const { payloadsJson } = request;
  const texts = payloadsJson.startsWith('[') ? jsonArrayItems(payloadsJson) : [payloadsJson];
  return new Map(request.items.map((it, i) => [it.key, texts[i]]));
}

function riddenPriceJson(productJson: string | undefined): string | undefined {
  if (productJson === undefined) return undefined;
  const price = riddenPrice(parseExact(productJson));
  return price === undefined ? undefined : stringifyExact(price);
}

export async function recordHistory(
  history: PayloadHistory,
  pipeline: string,
  runId: string,
  committed: readonly StateItem[],
  confirmed: readonly { item: StateItem; request: JobRequest }[],
): Promise<void> {
  // A split part's items are copies of its request's items: payloads are found by key.
  const cut = new Map<JobRequest, Map<string, string | undefined>>();
  const jsonOf = new Map<StateItem, string | undefined>();
  for (const { item, request } of confirmed) {
    let texts = cut.get(request);
    if (!texts) {
      texts = payloadTexts(request);
      cut.set(request, texts);
    }
    const json = texts.get(item.key);
    jsonOf.set(item, json);
    for (const riding of item.also ?? []) jsonOf.set(riding, riddenPriceJson(json));
  }
  const delivered: DeliveredItem[] = [];
  for (const item of committed) {
    if (jsonOf.has(item)) delivered.push({ item, json: jsonOf.get(item) });
  }
  if (delivered.length > 0) await history.record(pipeline, runId, delivered);
}
