/**
 * A job's confirmed items with the JSON of the payloads they were sent with, for their commit to
 * state and the payload history (src/state/before-images): what Ferry last delivered, and each
 * change's before-image for `ferry undo`. Each payload is cut out of its request's JSON as it
 * stands (nothing parsed or written again). A price that rode in its product's item (item.also)
 * is committed with it and recorded as if it had gone by itself: its payload is the `prices` it
 * rode with, so undo restores it like any price.
 */
import type { DeliveredItem, StateItem } from '../../state/index.js';
import { riddenPrice } from '../../pipeline/index.js';
import { jsonArrayItems, parseExact, stringifyExact } from '../../base/index.js';
import type { JobRequest } from '../../runs/index.js';

/** The JSON of each of the request's payloads by its item's key. */
function payloadTexts(request: JobRequest): Map<string, string | undefined> {
  const texts = jsonArrayItems(request.payloadsJson);
  return new Map(request.items.map((it, i) => [it.key, texts[i]]));
}

function riddenPriceJson(productJson: string | undefined): string | undefined {
  if (productJson === undefined) return undefined;
  const price = riddenPrice(parseExact(productJson));
  return price === undefined ? undefined : stringifyExact(price);
}

/** The confirmed items and the prices that rode in them, each with its payload's JSON. */
export function deliveredItems(
  confirmed: readonly { item: StateItem; request: JobRequest }[],
): DeliveredItem[] {
  // A split part's items are copies of its request's items: payloads are found by key.
  const cut = new Map<JobRequest, Map<string, string | undefined>>();
  const delivered: DeliveredItem[] = [];
  for (const { item, request } of confirmed) {
    // An entity write's body is its one item's payload (a price, most of a catalog's requests).
    let json: string | undefined = request.payloadsJson;
    if (json.startsWith('[')) {
      let texts = cut.get(request);
      if (!texts) {
        texts = payloadTexts(request);
        cut.set(request, texts);
      }
      json = texts.get(item.key);
    }
    delivered.push({ item, json });
    for (const riding of item.also ?? [])
      delivered.push({ item: riding, json: riddenPriceJson(json) });
  }
  return delivered;
}
