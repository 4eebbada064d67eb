/**
 * A write decided in a serving process and applied by the owner of the state (several serving
 * processes, docs/SIMULATOR.md): the serving process executes the write on a record of the state
 * instead of the state, which gives the answer and the changes as JSON text; the owner only stores
 * them. A write whose outcome hangs on one key's existence (a product's prices) is planned both
 * ways and the owner picks; one that reads stored items or numbers new ones (a PATCH, a campaign,
 * a customer without externalId) cannot be planned: the owner executes it itself.
 */
import type { SimResponse } from './http-io.js';
import type { Item, SimState, StateResource } from './state-store.js';
import type { WriteOutcome, WriteState } from './write-outcome.js';

/** One change to the state: an item's JSON text stored, an item deleted, the age group code set. */
export type StateChange =
  | ['put', StateResource, string, string]
  | ['delete', StateResource, string]
  | ['ageGroupCode', Item];

export interface PlannedOutcome {
  response: SimResponse;
  appliedItems: number;
  rejectedItems: number;
  changes: StateChange[];
}

export interface WritePlan {
  /** The outcome when `requires` is stored, or always when there is no `requires`. */
  then: PlannedOutcome;
  requires?: [StateResource, string];
  otherwise?: PlannedOutcome;
}

/** The state as a write sees it, recording its changes; `exists` answers its one `has`. */
class StateRecord implements WriteState {
  readonly changes: StateChange[] = [];
  required: [StateResource, string] | undefined;
  /** The write read more than one key's existence, a stored item, or a new id. */
  unplannable = false;

  constructor(private readonly exists: boolean) {}

  has(resource: StateResource, key: string): boolean {
    if (this.required) this.unplannable = true;
    this.required = [resource, key];
    return this.exists;
  }

  get(): Item | undefined {
    this.unplannable = true;
    return undefined;
  }

  put(resource: StateResource, key: string, item: Item): void {
    this.changes.push(['put', resource, key, JSON.stringify(item)]);
  }

  delete(resource: StateResource, key: string): boolean {
    this.changes.push(['delete', resource, key]);
    return true;
  }

  nextId(): string {
    this.unplannable = true;
    return '';
  }

  get ageGroupCode(): Item | null {
    this.unplannable = true;
    return null;
  }

  set ageGroupCode(item: Item | null) {
    if (item) this.changes.push(['ageGroupCode', item]);
  }
}

function recorded(write: (state: WriteState) => WriteOutcome, exists: boolean) {
  const record = new StateRecord(exists);
  const outcome = write(record);
  if (record.unplannable) return undefined;
  const { response, appliedItems, rejectedItems } = outcome;
  return {
    planned: { response, appliedItems, rejectedItems, changes: record.changes },
    required: record.required,
  };
}

/** The plan of `write`, or undefined when only the owner can execute it. */
export function planWrite(write: (state: WriteState) => WriteOutcome): WritePlan | undefined {
  const first = recorded(write, true);
  if (!first) return undefined;
  if (!first.required) return { then: first.planned };
  const second = recorded(write, false);
  if (!second) return undefined;
  return { then: first.planned, requires: first.required, otherwise: second.planned };
}

/** Applies a plan to the state: the outcome chosen, its changes stored. */
export function applyPlan(state: SimState, plan: WritePlan): PlannedOutcome {
  const chosen =
    plan.requires && !state.has(plan.requires[0], plan.requires[1]) ? plan.otherwise! : plan.then;
  for (const change of chosen.changes) {
    if (change[0] === 'put') state.putText(change[1], change[2], change[3]);
    else if (change[0] === 'delete') state.delete(change[1], change[2]);
    else state.ageGroupCode = change[1];
  }
  return chosen;
}
