/**
 * `GET /metrics`: Prometheus text, the whole installation's; a viewer token needed unless
 * serve.metricsPublic (a token scoped to platforms gets 404).
 */
import type { FastifyInstance } from 'fastify';
import { installationMetrics } from '../installation-metrics.js';
import type { ServeContext } from '../serve-context.js';

export function metricsRoutes(app: FastifyInstance, ctx: ServeContext): void {
  const metrics = installationMetrics(ctx);
  app.get(
    '/metrics',
    {
      schema: { hide: true },
      config: { access: ctx.config.serve.metricsPublic ? 'public' : 'viewer', shared: true },
    },
    async (_request, reply) => reply.type(metrics.contentType).send(await metrics.text()),
  );
}
