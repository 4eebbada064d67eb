/** `/healthz`: the process lives. `/readyz`: Redis answers (503 with the reason when not). */
import type { FastifyInstance } from 'fastify';
import type { ServeContext } from '../serve-context.js';

const READY_TIMEOUT_MS = 1_000;

export function healthRoutes(app: FastifyInstance, ctx: ServeContext): void {
  app.get('/healthz', { config: { access: 'public' } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { access: 'public' } }, async (_request, reply) => {
    const timeout = new Promise<'timeout'>((resolve) =>
      setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS).unref(),
    );
    const answer = await Promise.race([ctx.redis.ping().catch(() => 'error'), timeout]);
    if (answer === 'PONG') return { status: 'ok' };
    return reply.code(503).send({
      status: 'unavailable',
      reason: `Redis does not answer (within ${READY_TIMEOUT_MS} ms)`,
    });
  });
}
