/** `GET /api/audit`: the operator actions taken through the console, newest first. */
import type { FastifyInstance } from 'fastify';
import { readAudit } from '../../runs/index.js';
import type { ServeContext } from '../serve-context.js';

export function auditRoutes(app: FastifyInstance, ctx: ServeContext): void {
  app.get<{ Querystring: { limit?: number } }>(
    '/api/audit',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
        },
      },
    },
    async (request) => await readAudit(ctx.redis, ctx.keys, request.query.limit ?? 100),
  );
}
