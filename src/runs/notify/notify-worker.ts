/**
 * Calls the queued webhooks: POST of the JSON summary, signed when notifications.secret is set;
 * an answer other than 2xx (or none within 10 s) fails the job, which BullMQ retries with backoff.
 */
import { onWorkerError, createRedis } from '../../redis/index.js';
import { Worker } from 'bullmq';
import type { Logger } from 'pino';
import { request } from 'undici';
import type { FerryConfig } from '../../config/index.js';
import { deliveryKeys } from '../keys.js';
import { NOTIFY_QUEUE, type NotifyJobData } from './notify-queue.js';
import { signature, SIGNATURE_HEADER } from './sign.js';

const TIMEOUT_MS = 10_000;

export interface NotifyWorker {
  close(): Promise<void>;
}

export function startNotifyWorker(options: { config: FerryConfig; logger: Logger }): NotifyWorker {
  const { config, logger } = options;
  const keys = deliveryKeys(config.redis.prefix);
  const redis = createRedis(config.redis);
  const secret = config.notifications.secret;
  const worker = new Worker<NotifyJobData>(
    NOTIFY_QUEUE,
    async (job) => {
      const { url, event, body } = job.data;
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'ferry-event': event,
      };
      if (secret) headers[SIGNATURE_HEADER] = signature(secret, body);
      const answer = await request(url, {
        method: 'POST',
        headers,
        body,
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
      await answer.body.dump();
      if (answer.statusCode < 200 || answer.statusCode >= 300) {
        throw new Error(`the webhook answered HTTP ${answer.statusCode}`);
      }
    },
    { connection: redis, prefix: keys.bullPrefix, concurrency: 4 },
  );
  worker.on('failed', (job, error) =>
    logger.warn(
      { event: job?.data.event, attempt: job?.attemptsMade, err: error.message },
      'webhook not delivered; it is tried again',
    ),
  );
  worker.on('error', onWorkerError(logger, 'notification worker error'));
  return {
    async close() {
      await worker.close();
      await redis.quit();
    },
  };
}
