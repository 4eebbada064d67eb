/**
 * Runs: `GET /api/runs` (the lines of `ferry runs --json`, newest first, a page at a time),
 * `GET /api/runs/{runId}` (the document `ferry run --json` prints, with progress while it runs),
 * `POST /api/runs/{runId}/cancel` (operator; as `ferry cancel`, answering within seconds).
 */
import type { FastifyInstance } from 'fastify';
import { cancelRun } from '../../queue/runs/cancel-run.js';
import { lineOf } from '../../queue/runs/run-line.js';
import { parseRun } from '../../queue/runs/run-record.js';
import { buildRunReport } from '../../queue/runs/run-report.js';
import { recordAudit } from '../audit.js';
import type { ServeContext } from '../serve-context.js';

/** How long a cancel waits for the run's jobs in flight before answering "cancelling". */
const CANCEL_WAIT_MS = 10_000;
const PAGE = 100;

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
    async (request) => {
      const { pipeline, limit = 50 } = request.query;
      // The cursor is the position in the run index (newest first) where the next page starts.
      let at = Number(request.query.cursor ?? 0);
      const runs = [];
      for (;;) {
        const ids = await ctx.redis.zrevrange(ctx.keys.runIndex, at, at + PAGE - 1);
        for (const id of ids) {
          at += 1;
          const run = parseRun(await ctx.redis.hgetall(ctx.keys.run(id)));
          if (!run || (pipeline !== undefined && run.pipeline !== pipeline)) continue;
          runs.push(lineOf(run));
          if (runs.length === limit) break;
        }
        if (runs.length === limit || ids.length < PAGE) break;
      }
      const more = runs.length === limit && (await ctx.redis.zcard(ctx.keys.runIndex)) > at;
      return { runs, ...(more ? { nextCursor: String(at) } : {}) };
    },
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
