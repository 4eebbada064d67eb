/**
 * The console's pages, rendered on the server from the same readers as the JSON API, and the
 * files they link to: the run reports and the dead-letter CSV, built from Redis (a console on
 * another machine than the workers has them too), and the stylesheet and scripts.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { pipelineNames } from '../../pipeline/index.js';
import {
  deadLetterRow,
  deadLettersCsv,
  NotFoundError,
  buildRunReport,
  failuresCsv,
  readRunTimeline,
  traceEntity,
  tracedPipeline,
  TRACED_RUNS,
} from '../../runs/index.js';
import { readLastReconciliations } from '../../reconcile/index.js';
import { CONSOLE_CSS } from '../assets/console-css.js';
import { CONSOLE_SCRIPT } from '../assets/console-script.js';
import { lastAuditOf, readAudit } from '../audit.js';
import { auditBody } from '../pages/audit-page.js';
import { entitiesBody } from '../pages/entities-page.js';
import { deadLetterBody, deadLetterGoneBody, deadLettersBody } from '../pages/dead-letters-page.js';
import {
  findDeadLetterPage,
  findDeadLetters,
  type DeadLetterSearch,
} from '../find-dead-letters.js';
import type { SafeHtml } from '../pages/html.js';
import { page, type PageFrame } from '../pages/layout.js';
import { overviewBody } from '../pages/overview-page.js';
import { pipelineBody } from '../pages/pipeline-page.js';
import { runBody } from '../pages/run-page.js';
import { RUN_STATUSES, runsBody } from '../pages/runs-page.js';
import { readOverview } from '../read-overview.js';
import { readRunPage } from '../read-runs.js';
import type { ServeContext } from '../serve-context.js';
import { readPipelines } from './api-pipelines.js';

const LIVE_MS = 2_000;
const PAGE_SIZE = 50;
const AUDIT_SHOWN = 500;
/** A run page lists its first dead letters; the dead-letter search has them all. */
const DEAD_LETTERS_SHOWN = 100;

const require = createRequire(import.meta.url);
const uplotFile = (name: string): Buffer => readFileSync(require.resolve(`uplot/dist/${name}`));

export function pageRoutes(app: FastifyInstance, ctx: ServeContext): void {
  // Pages and files are for browsers: not part of the API's OpenAPI description.
  const hidden = { schema: { hide: true } };
  const pageConfig = { config: { page: true }, ...hidden };
  const send = (
    reply: FastifyReply,
    frame: Omit<PageFrame, 'principal' | 'csrf'>,
    body: SafeHtml,
  ): FastifyReply => {
    const request = reply.request;
    const full: PageFrame = { ...frame, principal: request.principal! };
    if (request.session) full.csrf = request.session.csrf;
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(page(full, body));
  };

  app.get('/', pageConfig, async (_request, reply) =>
    send(
      reply,
      { title: 'Overview', section: 'overview', liveMs: LIVE_MS, charts: true },
      overviewBody(await readOverview(ctx)),
    ),
  );

  app.get<{ Querystring: { pipeline?: string; status?: string; cursor?: string } }>(
    '/runs',
    pageConfig,
    async (request, reply) => {
      const pipeline = request.query.pipeline || undefined;
      const status = (RUN_STATUSES as readonly string[]).includes(request.query.status ?? '')
        ? request.query.status
        : undefined;
      const cursor = /^[0-9]+$/.test(request.query.cursor ?? '') ? request.query.cursor : undefined;
      const runs = await readRunPage(ctx, { pipeline, status, limit: PAGE_SIZE, cursor });
      return send(
        reply,
        { title: 'Runs', section: 'runs', liveMs: LIVE_MS },
        runsBody(runs, { pipeline, status, pipelines: pipelineNames(ctx.config) }, Date.now()),
      );
    },
  );

  app.get<{ Params: { runId: string } }>('/runs/:runId', pageConfig, async (request, reply) => {
    const { runId } = request.params;
    const report = await buildRunReport(ctx.redis, ctx.keys, ctx.dlq, runId, {
      deadLetterLimit: DEAD_LETTERS_SHOWN,
    });
    const deadLetters = await ctx.dlq.count({ runId });
    const timeline = await readRunTimeline(ctx.redis, ctx.keys, runId, {
      from: Date.parse(report.startedAt),
      to: report.finishedAt ? Date.parse(report.finishedAt) : Date.now(),
    });
    const running = report.status === 'running' || report.status === 'cancelling';
    return send(
      reply,
      { title: runId, section: 'runs', charts: true, ...(running ? { liveMs: LIVE_MS } : {}) },
      runBody(report, deadLetters, timeline, request.principal!, Date.now()),
    );
  });

  app.get<{ Params: { runId: string } }>(
    '/runs/:runId/report.json',
    hidden,
    async (request, reply) => {
      const report = await buildRunReport(ctx.redis, ctx.keys, ctx.dlq, request.params.runId);
      return reply
        .header('content-disposition', `attachment; filename="${report.runId}.json"`)
        .type('application/json')
        .send(`${JSON.stringify(report, null, 2)}\n`);
    },
  );

  app.get<{ Params: { runId: string } }>(
    '/runs/:runId/failures.csv',
    hidden,
    async (request, reply) => {
      const report = await buildRunReport(ctx.redis, ctx.keys, ctx.dlq, request.params.runId);
      return reply
        .header('content-disposition', `attachment; filename="${report.runId}-failures.csv"`)
        .type('text/csv; charset=utf-8')
        .send(failuresCsv(report.errors, report.deadLetters));
    },
  );

  app.get<{ Querystring: DeadLetterSearch & { cursor?: string } }>(
    '/dead-letters',
    pageConfig,
    async (request, reply) => {
      const search = searchOf(request.query);
      const at = Number(/^[0-9]+$/.test(request.query.cursor ?? '') ? request.query.cursor : 0);
      const found = await findDeadLetterPage(ctx, search, at, PAGE_SIZE);
      const entries = found.entries.map(deadLetterRow);
      const next = at + entries.length < found.total ? String(at + entries.length) : undefined;
      return send(
        reply,
        { title: 'Dead letters', section: 'dead-letters' },
        deadLettersBody(
          { entries, total: found.total, ...(next ? { nextCursor: next } : {}) },
          search,
          request.principal!,
          Date.now(),
        ),
      );
    },
  );

  app.get<{ Querystring: DeadLetterSearch }>(
    '/dead-letters/export.csv',
    hidden,
    async (request, reply) =>
      reply
        .header('content-disposition', 'attachment; filename="dead-letters.csv"')
        .type('text/csv; charset=utf-8')
        .send(deadLettersCsv(await findDeadLetters(ctx, searchOf(request.query)))),
  );

  app.get<{ Params: { id: string } }>('/dead-letters/:id', pageConfig, async (request, reply) => {
    const entry = await ctx.dlq.get(request.params.id);
    if (!entry) {
      // A replayed (or purged) dead letter is gone from the list: say what became of it.
      const done = await lastAuditOf(ctx.redis, ctx.keys, request.params.id);
      if (!done) {
        throw new NotFoundError(
          'dead letter',
          request.params.id,
          'No dead letter of this id waits: it was replayed or purged from the command line, or ' +
            'never existed. The dead-letter list shows what waits.',
        );
      }
      return send(
        reply,
        { title: request.params.id, section: 'dead-letters' },
        deadLetterGoneBody(request.params.id, done, Date.now()),
      );
    }
    return send(
      reply,
      { title: entry.id, section: 'dead-letters' },
      deadLetterBody(entry, request.principal!, Date.now()),
    );
  });

  app.get<{ Params: { name: string } }>('/pipelines/:name', pageConfig, async (request, reply) => {
    const view = (await readPipelines(ctx)).find((p) => p.name === request.params.name);
    if (!view) {
      throw new NotFoundError(
        'pipeline',
        request.params.name,
        `Pipelines: ${pipelineNames(ctx.config).join(', ')}.`,
      );
    }
    const { runs } = await readRunPage(ctx, { pipeline: view.name, limit: 20 });
    const drift = (await readLastReconciliations(ctx.redis, ctx.config.redis.prefix)).find(
      (r) => r.pipeline === view.name,
    );
    return send(
      reply,
      { title: view.name, section: 'overview', liveMs: LIVE_MS },
      pipelineBody(
        view,
        runs,
        request.principal!,
        ctx.config.serve.uploadMaxBytes,
        drift,
        Date.now(),
      ),
    );
  });

  app.get<{ Querystring: { pipeline?: string; key?: string } }>(
    '/entities',
    pageConfig,
    async (request, reply) => {
      const pipelines = pipelineNames(ctx.config);
      const pipeline = request.query.pipeline || pipelines[0];
      const key = request.query.key?.trim() || undefined;
      const trace =
        pipeline && key
          ? await traceEntity(ctx, tracedPipeline(ctx.config, pipeline), key, TRACED_RUNS)
          : undefined;
      return send(
        reply,
        { title: key ? `Trace ${key}` : 'Entity trace', section: 'entities' },
        entitiesBody(pipelines, { pipeline, key }, trace, Date.now()),
      );
    },
  );

  app.get('/audit', pageConfig, async (_request, reply) =>
    send(
      reply,
      { title: 'Audit trail', section: 'audit' },
      auditBody(await readAudit(ctx.redis, ctx.keys, AUDIT_SHOWN), Date.now()),
    ),
  );

  const asset = (type: string, body: string | Buffer) => async (_r: unknown, reply: FastifyReply) =>
    reply.type(type).header('cache-control', 'public, max-age=3600').send(body);
  const publicAsset = { config: { access: 'public' as const }, ...hidden };
  app.get('/favicon.ico', publicAsset, async (_r, reply) => reply.code(204).send());
  app.get('/assets/console.css', publicAsset, asset('text/css; charset=utf-8', CONSOLE_CSS));
  app.get(
    '/assets/console.js',
    publicAsset,
    asset('text/javascript; charset=utf-8', CONSOLE_SCRIPT),
  );
  app.get(
    '/assets/uplot.js',
    publicAsset,
    asset('text/javascript; charset=utf-8', uplotFile('uPlot.iife.min.js')),
  );
  app.get(
    '/assets/uplot.css',
    publicAsset,
    asset('text/css; charset=utf-8', uplotFile('uPlot.min.css')),
  );
}

function searchOf(query: DeadLetterSearch): DeadLetterSearch {
  return {
    pipeline: query.pipeline?.trim() || undefined,
    run: query.run?.trim() || undefined,
    operation: query.operation?.trim() || undefined,
    key: query.key?.trim() || undefined,
  };
}
