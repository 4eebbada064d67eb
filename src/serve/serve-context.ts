/** What every route of the console works with. */
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { FerryConfig } from '../config/schema.js';
import type { RedisClient } from '../redis/connection.js';
import type { DeadLetterStore } from '../queue/dlq/dead-letter-store.js';
import type { DeliveryKeys } from '../queue/keys.js';

export interface ServeContext {
  config: FerryConfig;
  redis: RedisClient;
  keys: DeliveryKeys;
  dlq: DeadLetterStore;
  logger: Logger;
  /** The delivery lanes and the schedule queue, opened once with the server. */
  queues: readonly Queue[];
}
