/** What every route of the console works with. */
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
}
