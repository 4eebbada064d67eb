/** `GET /api/queues`: each queue's jobs by state (the delivery lanes and the schedule ticks). */
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { LANES, queueName, SCHEDULE_QUEUE } from '../../queue/keys.js';
import type { ServeContext } from '../serve-context.js';

export const QUEUE_STATES = [
  'waiting',
  'active',
  'delayed',
  'completed',
  'failed',
  'paused',
] as const;

export interface QueueView {
  queue: string;
  counts: Record<(typeof QUEUE_STATES)[number], number>;
}

export async function readQueues(ctx: ServeContext): Promise<QueueView[]> {
  const views: QueueView[] = [];
  for (const name of [...LANES.map(queueName), SCHEDULE_QUEUE]) {
    const queue = new Queue(name, { connection: ctx.redis, prefix: ctx.keys.bullPrefix });
    try {
      const counts = await queue.getJobCounts(
        'waiting',
        'active',
        'delayed',
        'completed',
        'failed',
      );
      // BullMQ keeps a paused queue's jobs waiting: they are its paused ones.
      const paused = (await queue.isPaused()) ? (counts.waiting ?? 0) : 0;
      views.push({
        queue: name,
        counts: {
          waiting: counts.waiting ?? 0,
          active: counts.active ?? 0,
          delayed: counts.delayed ?? 0,
          completed: counts.completed ?? 0,
          failed: counts.failed ?? 0,
          paused,
        },
      });
    } finally {
      await queue.close();
    }
  }
  return views;
}

export function queueRoutes(app: FastifyInstance, ctx: ServeContext): void {
  app.get('/api/queues', async () => await readQueues(ctx));
}
