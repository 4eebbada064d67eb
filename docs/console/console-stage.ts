/**
 * What the console's screenshot scripts stand on: a worker, the console listening on a free port
 * and Chromium, on the given config; `close()` ends them all.
 */
import type { Redis } from 'ioredis';
import type { FerryConfig } from '../../src/config/schema.js';
import type { Logger } from '../../src/logging/logger.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { buildServer } from '../../src/serve/server.js';
import { launchBrowser } from '../../test/helpers/browser.js';

export async function openStage(config: FerryConfig, redis: Redis, logger: Logger) {
  const worker = await startDeliveryWorker({ config, logger });
  const app = await buildServer({ config, redis, logger });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await launchBrowser();
  return {
    url,
    browser,
    async close(): Promise<void> {
      await browser.close();
      await app.close();
      await worker.close();
    },
  };
}
