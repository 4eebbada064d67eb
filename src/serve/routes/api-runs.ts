/**
 * Runs: `GET /api/runs` (the lines of `ferry runs --json`, newest first, a page at a time),
 * `GET /api/runs/{runId}` (the document `ferry run --json` prints, with progress while it runs),
 * `POST /api/runs/{runId}/cancel` (operator; as `ferry cancel`, answering within seconds).
 */
import type { FastifyInstance } from 'fastify';
import { cancelRun } from '../../queue/runs/cancel-run.js';
import { buildRunReport } from '../../queue/runs/run-report.js';
import { recordAudit } from '../audit.js';
import { readRunPage } from '../read-runs.js';
import type { ServeContext } from '../serve-context.js';

/** How long a cancel waits for the run's jobs in flight before answering "cancelling". */
const CANCEL_WAIT_MS = 10_000;

export function runRoutes(app: FastifyInstance, ctx: ServeContext): void {
  app.get<{ Querystring: { pipeline?: string; limit?: number; cursor?: string } }>(
    '/api/runs',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            pipeline: { type: 'string' },
            limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
            cursor: { type: 'string', pattern: '^[0-9]+$' },
          },
        },
      },
    },
    async (request) =>
      await readRunPage(ctx, {
        pipeline: request.query.pipeline,
        limit: request.query.limit ?? 50,
        cursor: request.query.cursor,
      }),
  );

  app.get<{ Params: { runId: string } }>(
    '/api/runs/:runId',
    async (request) => await buildRunReport(ctx.redis, ctx.keys, ctx.dlq, request.params.runId),
  );

  app.post<{ Params: { runId: string } }>(
    '/api/runs/:runId/cancel',
    { config: { access: 'operator' } },
    async (request, reply) => {
      const { runId } = request.params;
      const outcome = await cancelRun({
        redis: ctx.redis,
        keys: ctx.keys,
        notify: ctx,
        runId,
        reportsDir: ctx.config.delivery.reportsDir,
        timeoutMs: CANCEL_WAIT_MS,
      });
      await recordAudit(ctx.redis, ctx.keys, {
        actor: request.principal!.name,
        action: 'run.cancel',
        target: runId,
      });
      return reply.code(outcome.status === 'cancelled' ? 200 : 202).send(outcome);
    },
  );
}
