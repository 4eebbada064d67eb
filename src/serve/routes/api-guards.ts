/**
 * POST /api/runs/{runId}/allow-guard (operator): runs the pipeline again on the input the stopped
 * run kept (whatever started it: a CLI file, an upload, a pickup, a URL) and sends exactly the plan
 * the value guards stopped, once (src/runs/guards/allow-guard.ts). With serve.fourEyes the
 * operator must not be the one who started the stopped run (403 FERRY_FOUR_EYES). The allowance
 * and every refusal of it are audited.
 */
import type { FastifyInstance } from 'fastify';
import { loadStoppedRun, type AllowGuard } from '../../runs/index.js';
import { startRun } from '../../orchestrate/index.js';
import { runPlatform } from '../platform-scope.js';
import type { ServeContext } from '../serve-context.js';

export function guardRoutes(app: FastifyInstance, ctx: ServeContext): void {
  app.post<{ Params: { runId: string } }>(
    '/api/runs/:runId/allow-guard',
    { config: { access: 'operator' } },
    async (request, reply) => {
      const actor = request.principal!.name;
      const allow: AllowGuard = {
        stoppedRunId: request.params.runId,
        by: actor,
        fourEyes: ctx.config.serve.fourEyes,
      };
      await runPlatform(
        ctx,
        request.principal!,
        allow.stoppedRunId,
        '`ferry runs` lists the recent runs.',
      );
      // Refused before planning when it cannot be allowed (four eyes, used, not a guard stop).
      const stopped = await loadStoppedRun(ctx.redis, ctx.keys, allow);
      const started = await startRun({
        config: ctx.config,
        redis: ctx.redis,
        logger: ctx.logger,
        pipeline: stopped.pipeline,
        allowGuard: allow,
        trigger: 'http',
        startedBy: actor,
      });
      const status = await ctx.redis.hget(ctx.keys.run(started.runId), 'status');
      return reply
        .code(202)
        .header('location', `/api/runs/${started.runId}`)
        .send({ runId: started.runId, status, allowedFrom: stopped.id });
    },
  );
}
