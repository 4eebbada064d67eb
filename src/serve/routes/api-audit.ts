/**
 * `GET /api/audit`: the operator actions taken through the console, newest first; of a token's
 * platforms only (and of one with `?platform=`): read-audit.ts.
 */
import type { FastifyInstance } from 'fastify';
import { platformFilter } from '../platform-scope.js';
import { readAuditOf } from '../read-audit.js';
import type { ServeContext } from '../serve-context.js';

export function auditRoutes(app: FastifyInstance, ctx: ServeContext): void {
  app.get<{ Querystring: { limit?: number; platform?: string } }>(
    '/api/audit',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
            platform: { type: 'string' },
          },
        },
      },
    },
    async (request) =>
      await readAuditOf(
        ctx,
        platformFilter(ctx.config, request.principal!, request.query.platform),
        request.query.limit ?? 100,
      ),
  );
}
