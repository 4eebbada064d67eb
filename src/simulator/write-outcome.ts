/** What executing a write gives the request handler: the answer and how many items it changed. */
import type { SimResponse } from './http-io.js';
import type { SimState } from './state-store.js';
import type { ItemRules } from './validation.js';

export interface WriteOutcome {
  response: SimResponse;
  appliedItems: number;
  rejectedItems: number;
}

/** What a write reads and changes of the state: SimState, or a plan's record (write-plan.ts). */
export type WriteState = Pick<
  SimState,
  'has' | 'get' | 'put' | 'delete' | 'nextId' | 'ageGroupCode'
>;

export interface WriteContext {
  state: WriteState;
  rejectKeys: ReadonlySet<string>;
  rules: ItemRules;
}

export function outcome(response: SimResponse, appliedItems: number, rejectedItems = 0) {
  return { response, appliedItems, rejectedItems } satisfies WriteOutcome;
}
