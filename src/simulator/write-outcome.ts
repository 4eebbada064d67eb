/** What executing a write gives the request handler: the answer and how many items it changed. */
import type { SimResponse } from './http-io.js';
import type { SimState } from './state-store.js';
import type { ItemRules } from './validation.js';

export interface WriteOutcome {
  response: SimResponse;
  appliedItems: number;
  rejectedItems: number;
}

export interface WriteContext {
  state: SimState;
  rejectKeys: ReadonlySet<string>;
  rules: ItemRules;
}

export function outcome(response: SimResponse, appliedItems: number, rejectedItems = 0) {
  return { response, appliedItems, rejectedItems } satisfies WriteOutcome;
}
