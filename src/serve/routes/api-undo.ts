/**
 * POST /api/runs/{runId}/undo (operator): starts the undo of a finished run as a run of its own
 * (src/orchestrate/undo-run.ts); `?dryRun=true` only says what it would send. Audited.
 */
import type { FastifyInstance } from 'fastify';
import { undoRun } from '../../orchestrate/index.js';
import { recordAudit } from '../../runs/index.js';
import { runPlatform } from '../platform-scope.js';
import type { ServeContext } from '../serve-context.js';

export function undoRoutes(app: FastifyInstance, ctx: ServeContext): void {
  app.post<{ Params: { runId: string }; Querystring: { dryRun?: string; force?: string } }>(
    '/api/runs/:runId/undo',
    { config: { access: 'operator' } },
    async (request, reply) => {
      const actor = request.principal!.name;
      const dryRun = request.query.dryRun === 'true';
      const platform = await runPlatform(
        ctx,
        request.principal!,
        request.params.runId,
        '`ferry runs` lists the recent runs.',
      );
      const result = await undoRun({
        config: ctx.config,
        redis: ctx.redis,
        logger: ctx.logger,
        runId: request.params.runId,
        dryRun,
        force: request.query.force === 'true',
        trigger: 'http',
        startedBy: actor,
      });
      if (dryRun) return reply.send(result);
      await recordAudit(ctx.redis, ctx.keys, {
        actor,
        action: 'run.undo',
        target: `${result.runId} -> ${result.undoRunId}`,
        ...(platform ? { platform } : {}),
      });
      return reply.code(202).header('location', `/api/runs/${result.undoRunId}`).send(result);
    },
  );
}
