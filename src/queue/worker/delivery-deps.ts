/** What a delivery job needs, built once per worker process. */
import type { RedisClient } from '../../redis/index.js';
import type { FerryConfig } from '../../config/index.js';
import type { Binding, InterfaceClient } from '../../interface/index.js';
import type { Logger } from '../../logging/index.js';
import type { PayloadHistory, RefusalLog, StateStore } from '../../state/index.js';
import type { DeadLetterStore, DeliveryKeys, RunRequestCounter } from '../../runs/index.js';
import type { DeliveryQueues } from '../queues.js';
import type { Breaker } from './breaker.js';
import type { RateGate } from './rate-gate.js';

export interface DeliveryDeps {
  redis: RedisClient;
  keys: DeliveryKeys;
  config: FerryConfig;
  /** The platform this worker sends to (normalised base URL): a run of another waits. */
  platform: string;
  client: InterfaceClient;
  bindings: ReadonlyMap<string, Binding>;
  gate: RateGate;
  state: StateStore;
  /** Commits confirmed items to state with their payloads and before-images (value guards, undo). */
  history: PayloadHistory;
  /** Counts the changes the platform refused, so they are planned again with new keys. */
  refusals: RefusalLog;
  dlq: DeadLetterStore;
  queues: DeliveryQueues;
  logger: Logger;
  /** Counts each run's requests answered, for its forecast. */
  sent: RunRequestCounter;
  /**
   * Several platforms: a request that would wait longer than this at its platform's rate gate
   * hands its job back for that long, freeing the slot for the other platforms' jobs.
   */
  yieldAfterMs?: number;
  /** The pipelines' breaker for platform-wide refusals. */
  breaker: Breaker;
  /** Called in the process whose refusal blocked a run's delivery (notifies `blocked`). */
  onBlocked?: (runId: string) => Promise<void>;
  /** Called in the process whose job finished a run (writes its report). */
  onRunFinished?: (runId: string) => Promise<void>;
  /**
   * Aborted when the worker stops past its shutdown timeout: its requests in flight were
   * abandoned, and their jobs must be left to another worker, neither settled nor dead-lettered.
   */
  stopping?: AbortSignal;
  /**
   * Aborted when the worker begins to stop: a job sending hands the rest of its requests back to
   * the queue once the request it has out is answered, so another worker goes on at once.
   */
  draining?: AbortSignal;
}

export function bindingOf(deps: DeliveryDeps, operationId: string): Binding {
  const binding = deps.bindings.get(operationId);
  if (!binding) throw new Error(`no binding for operation ${operationId}`);
  return binding;
}
