/** What every route of the console works with. */
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { FerryConfig } from '../config/index.js';
import type { RedisClient } from '../redis/index.js';
import type { DeadLetterStore, DeliveryKeys } from '../runs/index.js';

export interface ServeContext {
  config: FerryConfig;
  /** Reads (and short writes): each command has serve.redisTimeoutMs, then fails (503). */
  redis: RedisClient;
  /**
   * Where runs are started (imports, an allowed guard stop): no deadline, as a plan's writes must
   * not be cut off midway; the route's own reads go through `redis`.
   */
  planner: RedisClient;
  keys: DeliveryKeys;
  dlq: DeadLetterStore;
  logger: Logger;
  /** The delivery lanes and the schedule queue, opened once with the server. */
  queues: readonly Queue[];
}
