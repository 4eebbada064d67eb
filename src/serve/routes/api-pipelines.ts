/**
 * Pipelines: `GET /api/pipelines` (each pipeline file on each platform it delivers to, by its
 * qualified name, with its schedule and last run; `?platform=` one platform's), an operator's
 * `POST /api/pipelines/{name}/schedule/pause|resume` (as `ferry schedules pause`: the schedule is
 * the file's, so a token must see every platform the file delivers to), and an operator's
 * `POST /api/pipelines/{name}/run`: a run now from the pipeline's own source (as `ferry run
 * NAME`), 202 {runId, status}; 409 with activeRunId while the pipeline runs. A pipeline of a
 * platform the token does not see answers 404.
 */
import type { FastifyInstance } from 'fastify';
import { isFerryError, UsageError } from '../../errors/index.js';
import {
  listedTargets,
  loadAnyPipeline,
  loadPipeline,
  type PipelineDefinition,
} from '../../pipeline/index.js';
import { buildRunReport, recentRuns, recordAudit } from '../../runs/index.js';
import { laneOf, startRun } from '../../orchestrate/index.js';
import {
  listSchedules,
  pauseSchedule,
  resumeSchedule,
  openScheduleQueue,
} from '../../schedules/index.js';
import {
  platformFilter,
  platformOfPipeline,
  sees,
  type PlatformFilter,
} from '../platform-scope.js';
import { listTargets, pipelineNotFound, resolveTarget } from '../pipeline-targets.js';
import type { ServeContext } from '../serve-context.js';
import type { Principal } from '../tokens.js';

export interface PipelineView {
  /** Its qualified name: `catalog` on the default platform, `catalog@north` on north. */
  name: string;
  /** The platform it delivers to. */
  platform: string;
  description?: string;
  direction: 'import' | 'export';
  lane: string;
  schedule?: { cron: string; tz: string };
  nextRunAt?: string | null;
  paused?: boolean;
  lastRun?: { runId: string; status: string; finishedAt?: string };
  /** Why the pipeline file cannot be read, when it cannot. */
  problem?: string;
  /** The file, folder or URL an import pipeline reads by itself (it can be run now). */
  ownSource?: string;
}

/** What an import pipeline reads by itself; none for one fed by uploads or a pickup folder. */
export function ownSourceOf(definition: PipelineDefinition): string | undefined {
  if (definition.schedule?.pickup) return undefined;
  const { file, folder, url } = definition.source;
  return file ?? folder ?? url;
}

/** Each pipeline file on each platform it delivers to, of the platforms the filter keeps. */
export async function readPipelines(
  ctx: ServeContext,
  platforms: PlatformFilter = undefined,
): Promise<PipelineView[]> {
  const queue = openScheduleQueue(ctx.redis, ctx.keys);
  try {
    const schedules = new Map(
      (await listSchedules(ctx.config, ctx.redis, queue)).map((s) => [s.pipeline, s]),
    );
    const views: PipelineView[] = [];
    for (const { name, file } of listTargets(ctx.config, platforms)) {
      const view: PipelineView = {
        name,
        platform: platformOfPipeline(name),
        direction: 'import',
        lane: laneOf(ctx.config, name),
      };
      try {
        const { direction, definition } = loadAnyPipeline(name, ctx.config);
        view.direction = direction;
        if (definition.description) view.description = definition.description;
        const own =
          direction === 'import' ? ownSourceOf(definition as PipelineDefinition) : undefined;
        if (own) view.ownSource = own;
      } catch (error) {
        if (!isFerryError(error)) throw error;
        view.problem = error.message;
      }
      // The schedule is the file's: its tick runs the file on each of its platforms.
      const schedule = schedules.get(file);
      if (schedule) {
        view.schedule = { cron: schedule.cron, tz: schedule.tz };
        view.nextRunAt = schedule.nextRunAt;
        view.paused = schedule.paused;
      }
      const [last] = await recentRuns(ctx.redis, ctx.keys, {
        pipeline: name,
        limit: 1,
        standing: true,
      });
      if (last) {
        view.lastRun = {
          runId: last.id,
          status: last.status,
          ...(last.finishedAt ? { finishedAt: new Date(last.finishedAt).toISOString() } : {}),
        };
      }
      views.push(view);
    }
    return views;
  } finally {
    await queue.close();
  }
}

export function pipelineRoutes(app: FastifyInstance, ctx: ServeContext): void {
  app.get<{ Querystring: { platform?: string } }>(
    '/api/pipelines',
    { schema: { querystring: { type: 'object', properties: { platform: { type: 'string' } } } } },
    async (request) =>
      await readPipelines(
        ctx,
        platformFilter(ctx.config, request.principal!, request.query.platform),
      ),
  );

  app.post<{ Params: { name: string } }>(
    '/api/pipelines/:name/run',
    { config: { access: 'operator' } },
    async (request, reply) => {
      const { name } = resolveTarget(ctx.config, request.principal!, request.params.name);
      const definition = loadPipeline(name, ctx.config);
      if (!ownSourceOf(definition)) {
        throw new UsageError(
          `Pipeline "${name}" has no source of its own to read: import a file ` +
            `(POST /api/pipelines/${name}/runs) instead.`,
        );
      }
      const started = await startRun({
        config: ctx.config,
        redis: ctx.redis,
        logger: ctx.logger,
        pipeline: name,
        trigger: 'http',
        startedBy: request.principal!.name,
      });
      await recordAudit(ctx.redis, ctx.keys, {
        actor: request.principal!.name,
        action: 'run.start',
        target: started.runId,
        platform: platformOfPipeline(name),
      });
      const status = (await buildRunReport(ctx.redis, ctx.keys, ctx.dlq, started.runId)).status;
      return reply
        .code(202)
        .header('location', `/api/runs/${started.runId}`)
        .send({ runId: started.runId, status });
    },
  );

  for (const action of ['pause', 'resume'] as const) {
    app.post<{ Params: { name: string } }>(
      `/api/pipelines/:name/schedule/${action}`,
      { config: { access: 'operator' } },
      async (request) => {
        const { name, platforms } = scheduleOf(ctx, request.principal!, request.params.name);
        const queue = openScheduleQueue(ctx.redis, ctx.keys);
        try {
          const change = action === 'pause' ? pauseSchedule : resumeSchedule;
          await change(ctx.config, ctx.redis, queue, name);
        } finally {
          await queue.close();
        }
        for (const platform of platforms) {
          await recordAudit(ctx.redis, ctx.keys, {
            actor: request.principal!.name,
            action: `schedule.${action}`,
            target: name,
            platform,
          });
        }
        return { pipeline: name, paused: action === 'pause' };
      },
    );
  }
}

/**
 * The pipeline file whose schedule a route names (by the file's name or a qualified one), and the
 * platforms its tick runs on: 404 unless the principal sees every one of them.
 */
function scheduleOf(
  ctx: ServeContext,
  principal: Principal,
  named: string,
): { name: string; platforms: string[] } {
  const { file } = resolveTarget(ctx.config, principal, named);
  const targets = listedTargets(file, ctx.config);
  if (!targets.every((t) => sees(principal, t)))
    throw pipelineNotFound(ctx.config, principal, named);
  return { name: file, platforms: targets.map(platformOfPipeline) };
}
