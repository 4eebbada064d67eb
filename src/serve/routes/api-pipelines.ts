/**
 * Pipelines: `GET /api/pipelines` (each pipeline file with its schedule and last run), an
 * operator's `POST /api/pipelines/{name}/schedule/pause|resume` (as `ferry schedules pause`), and
 * an operator's `POST /api/pipelines/{name}/run`: a run now from the pipeline's own source (as
 * `ferry run NAME`), 202 {runId, status}; 409 with activeRunId while the pipeline runs.
 */
import type { FastifyInstance } from 'fastify';
import { isFerryError, UsageError } from '../../errors/index.js';
import {
  loadAnyPipeline,
  loadPipeline,
  pipelineNames,
  type PipelineDefinition,
} from '../../pipeline/index.js';
import { NotFoundError, buildRunReport, recentRuns, recordAudit } from '../../runs/index.js';
import { laneOf, startRun } from '../../orchestrate/index.js';
import {
  listSchedules,
  pauseSchedule,
  resumeSchedule,
  openScheduleQueue,
} from '../../schedules/index.js';
import type { ServeContext } from '../serve-context.js';

export interface PipelineView {
  name: string;
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

export async function readPipelines(ctx: ServeContext): Promise<PipelineView[]> {
  const queue = openScheduleQueue(ctx.redis, ctx.keys);
  try {
    const schedules = new Map(
      (await listSchedules(ctx.config, ctx.redis, queue)).map((s) => [s.pipeline, s]),
    );
    const views: PipelineView[] = [];
    for (const name of pipelineNames(ctx.config)) {
      const view: PipelineView = { name, direction: 'import', lane: laneOf(ctx.config, name) };
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
      const schedule = schedules.get(name);
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
  app.get('/api/pipelines', async () => await readPipelines(ctx));

  app.post<{ Params: { name: string } }>(
    '/api/pipelines/:name/run',
    { config: { access: 'operator' } },
    async (request, reply) => {
      const { name } = request.params;
      if (!pipelineNames(ctx.config).includes(name)) {
        throw new NotFoundError(
          'pipeline',
          name,
          `Pipelines: ${pipelineNames(ctx.config).join(', ')}.`,
        );
      }
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
        const { name } = request.params;
        const queue = openScheduleQueue(ctx.redis, ctx.keys);
        try {
          const change = action === 'pause' ? pauseSchedule : resumeSchedule;
          await change(ctx.config, ctx.redis, queue, name);
        } finally {
          await queue.close();
        }
        await recordAudit(ctx.redis, ctx.keys, {
          actor: request.principal!.name,
          action: `schedule.${action}`,
          target: name,
        });
        return { pipeline: name, paused: action === 'pause' };
      },
    );
  }
}
