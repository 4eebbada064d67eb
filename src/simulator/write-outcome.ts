/** What executing a write gives the request handler: the answer and how many items it changed. */
import type { SimResponse } from './http-io.js';
import type { SimState } from './state-store.js';

export interface WriteOutcome {
  response: SimResponse;
  appliedItems: number;
  rejectedItems: number;
}

export interface WriteContext {
  state: SimState;
  rejectKeys: ReadonlySet<string>;
}

export function outcome(response: SimResponse, appliedItems: number, rejectedItems = 0) {
  return { response, appliedItems, rejectedItems } satisfies WriteOutcome;
}
