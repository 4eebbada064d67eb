/**
 * Runs: `GET /api/runs` (the lines of `ferry runs --json`, newest first, a page at a time),
 * `GET /api/runs/{runId}` (the document `ferry run --json` prints, with progress while it runs),
 * `POST /api/runs/{runId}/cancel` (operator; as `ferry cancel`, answering within seconds),
 * `POST /api/runs/{runId}/allow-deletes` (operator: the mass-delete guard stopped the run; start
 * it again with exactly the deletes it wanted allowed, once), `POST /api/runs/{runId}/resume`
 * (operator: a run the breaker blocked sends again at once, as `ferry resume`).
 */
import type { FastifyInstance } from 'fastify';
import { UsageError } from '../../errors/index.js';
import { cancelRun } from '../../queue/index.js';
import { resumeRun, startRun } from '../../orchestrate/index.js';
import { buildRunReport, keptInputSource, loadRun, recordAudit } from '../../runs/index.js';
import { platformFilter, platformOfPipeline, runPlatform } from '../platform-scope.js';
import { readRunPage } from '../read-runs.js';
import type { ServeContext } from '../serve-context.js';

/** How long a cancel waits for the run's jobs in flight before answering "cancelling". */
const CANCEL_WAIT_MS = 10_000;

/**
 * The run documents' `forecast`, described for the OpenAPI document (their other fields are
 * those of `ferry run --json` and `ferry runs --json`, passed through as they are).
 */
const forecastSchema = {
  type: 'object',
  description:
    "A running run's forecast (docs/DELIVERY.md, Forecast); absent when it is not running.",
  required: ['remainingRequests'],
  properties: {
    remainingRequests: { type: 'integer', description: 'Requests planned and not sent yet.' },
    requestsPerSecond: {
      type: 'number',
      description: 'Requests answered per second over the last minute; absent while measuring.',
    },
    finishAt: {
      type: 'string',
      format: 'date-time',
      description:
        'Now + remainingRequests / requestsPerSecond; absent while measuring, or when nothing was answered over the last minute.',
    },
  },
} as const;
const runDocumentSchema = {
  type: 'object',
  additionalProperties: true,
  properties: { forecast: forecastSchema },
} as const;

export function runRoutes(app: FastifyInstance, ctx: ServeContext): void {
  app.get<{
    Querystring: { pipeline?: string; platform?: string; limit?: number; cursor?: string };
  }>(
    '/api/runs',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            pipeline: { type: 'string' },
            platform: { type: 'string' },
            limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
            cursor: { type: 'string', pattern: '^[0-9]+$' },
          },
        },
        response: {
          200: {
            type: 'object',
            additionalProperties: true,
            properties: { runs: { type: 'array', items: runDocumentSchema } },
          },
        },
      },
    },
    async (request) =>
      await readRunPage(ctx, {
        pipeline: request.query.pipeline,
        platforms: platformFilter(ctx.config, request.principal!, request.query.platform),
        limit: request.query.limit ?? 50,
        cursor: request.query.cursor,
      }),
  );

  app.get<{ Params: { runId: string } }>(
    '/api/runs/:runId',
    { schema: { response: { 200: runDocumentSchema } } },
    async (request) => {
      await runPlatform(ctx, request.principal!, request.params.runId);
      return await buildRunReport(ctx.redis, ctx.keys, ctx.dlq, request.params.runId);
    },
  );

  app.post<{ Params: { runId: string } }>(
    '/api/runs/:runId/cancel',
    { config: { access: 'operator' } },
    async (request, reply) => {
      const { runId } = request.params;
      const platform = await runPlatform(ctx, request.principal!, runId);
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
        ...(platform ? { platform } : {}),
      });
      return reply.code(outcome.status === 'cancelled' ? 200 : 202).send(outcome);
    },
  );

  app.post<{ Params: { runId: string } }>(
    '/api/runs/:runId/resume',
    { config: { access: 'operator' } },
    async (request) => {
      const { runId } = request.params;
      const platform = await runPlatform(ctx, request.principal!, runId);
      const resumed = await resumeRun(ctx.redis, ctx.keys, runId);
      await recordAudit(ctx.redis, ctx.keys, {
        actor: request.principal!.name,
        action: 'run.resume',
        target: runId,
        ...(platform ? { platform } : {}),
      });
      // The page's flash says what was done, not a status the run soon leaves.
      return {
        ...resumed,
        message: `Resumed run ${runId}: its jobs send again; the page follows it.`,
      };
    },
  );

  app.post<{ Params: { runId: string } }>(
    '/api/runs/:runId/allow-deletes',
    { config: { access: 'operator' } },
    async (request, reply) => {
      await runPlatform(ctx, request.principal!, request.params.runId);
      const stopped = await loadRun(ctx.redis, ctx.keys, request.params.runId);
      if (stopped.status !== 'guard_stopped' || !stopped.wantedDeletes) {
        throw new UsageError(
          `Run ${stopped.id} was not stopped by the mass-delete guard (it is ${stopped.status}): there are no deletes to allow.`,
        );
      }
      const allowed = await ctx.redis.hget(ctx.keys.run(stopped.id), 'allowedRunId');
      if (allowed) {
        throw new UsageError(
          `The deletes of run ${stopped.id} were already allowed once: run ${allowed} made them. A new stop needs its own decision.`,
        );
      }
      const actor = request.principal!.name;
      // Exactly the deletes the operator saw: if the source now wants more, the guard stops again.
      const started = await startRun({
        config: ctx.config,
        redis: ctx.planner,
        logger: ctx.logger,
        pipeline: stopped.pipeline,
        // The input the stopped run read, kept whatever started it (kept-input.ts).
        source: await keptInputSource(stopped),
        ...(stopped.file ? { sourceName: stopped.file } : {}),
        allowDeletes: stopped.wantedDeletes.deletes,
        trigger: 'http',
        startedBy: actor,
      });
      await ctx.redis.hset(ctx.keys.run(stopped.id), {
        allowedRunId: started.runId,
        allowedBy: actor,
      });
      await recordAudit(ctx.redis, ctx.keys, {
        actor,
        action: 'run.allow-deletes',
        target: `${stopped.id} -> ${started.runId}`,
        platform: platformOfPipeline(stopped.pipeline),
      });
      const status = await ctx.redis.hget(ctx.keys.run(started.runId), 'status');
      return reply
        .code(202)
        .header('location', `/api/runs/${started.runId}`)
        .send({ runId: started.runId, status, allowedDeletes: stopped.wantedDeletes.deletes });
    },
  );
}
