/** `GET /api/queues`: each queue's jobs by state (the delivery lanes and the schedule ticks). */
import type { FastifyInstance } from 'fastify';
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
  return await Promise.all(
    ctx.queues.map(async (queue): Promise<QueueView> => {
      const [counts, isPaused] = await Promise.all([
        queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed'),
        queue.isPaused(),
      ]);
      return {
        queue: queue.name,
        counts: {
          waiting: counts.waiting ?? 0,
          active: counts.active ?? 0,
          delayed: counts.delayed ?? 0,
          completed: counts.completed ?? 0,
          failed: counts.failed ?? 0,
          // BullMQ keeps a paused queue's jobs waiting: they are its paused ones.
          paused: isPaused ? (counts.waiting ?? 0) : 0,
        },
      };
    }),
  );
}

export function queueRoutes(app: FastifyInstance, ctx: ServeContext): void {
  // Shared by every platform: a token scoped to platforms gets 404.
  app.get('/api/queues', { config: { shared: true } }, async () => await readQueues(ctx));
}
