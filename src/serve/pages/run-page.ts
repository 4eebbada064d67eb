/**
 * `/runs/{runId}`: one run. Its status and origin, progress and forecast while it runs (with a
 * cancel for an operator), items per operation, stages, a chart of items delivered over time, the
 * rows the source got wrong (file:line:field), its dead letters, and its report to download.
 */
import type { FastifyInstance } from 'fastify';
import {
  buildRunReport,
  failuresCsv,
  forecastText,
  readAudit,
  readRunTimeline,
  type AuditEntry,
  type RunForecast,
  type RunReport,
  runStatusText,
  type TimelinePoint,
  traceLink,
} from '../../runs/index.js';
import { durationText } from '../../base/index.js';
import { runPlatform } from '../platform-scope.js';
import type { ServeContext } from '../serve-context.js';
import type { UndoResult } from '../../orchestrate/index.js';
import { undoPreview } from '../undo-preview.js';
import type { Principal } from '../tokens.js';
import { chart } from './chart.js';
import { badge, count, versionText, when } from './format.js';
import { html, type SafeHtml } from './html.js';
import { fileRoute, LIVE_MS, pageRoute, sendPage, strings } from './page-route.js';
import { undoSection } from './undo-section.js';
import { valueGuardSection } from './value-guard-section.js';

/** Row errors shown on the page; the failures CSV has them all. */
const ERRORS_SHOWN = 200;
/** A run page lists its first dead letters; the dead-letter search has them all. */
const DEAD_LETTERS_SHOWN = 100;

const runLink = (id: string) => html`<a href="/runs/${encodeURIComponent(id)}">${id}</a>`;

/** What kind of run it is, with the run an undo undoes and those a replay replays. */
function kindText(report: RunReport): SafeHtml | string {
  switch (report.kind) {
    case 'undo':
      return report.undoOf ? html`undo of run ${runLink(report.undoOf)}` : 'undo';
    case 'replay':
      return report.replayOf?.length
        ? html`replay of dead letters of
          ${report.replayOf.map((id, i) => html`${i > 0 ? ', ' : ''}${runLink(id)}`)}`
        : 'replay of dead letters';
    case 'repair':
      return 'repair: what reconciliation found the platform missing';
    case 'export':
      return 'export';
    case 'sync':
      return 'sync of the source';
  }
}

/** The source it read: an undo and a replay read none, and say what they send instead. */
function sourceRow(report: RunReport): SafeHtml | string {
  if (report.kind === 'undo') {
    return html`<dt>Source</dt>
      <dd>
        no file: the before-images of
        ${report.undoOf ? runLink(report.undoOf) : 'the run it undoes'}
      </dd>`;
  }
  if (report.kind === 'replay') {
    return html`<dt>Source</dt>
      <dd>no file: dead letters, sent again</dd>`;
  }
  return html`<dt>Source</dt>
    <dd>
      ${report.file ?? html`<span class="muted">the pipeline's own source</span>`} ·
      ${count(report.rows)} rows read, ${count(report.rejected)} rejected
    </dd>`;
}

/** The run's OpenTelemetry trace, linked when telemetry.traceUrl is configured. */
function traceRow(traceId: string, link: string | undefined): SafeHtml {
  const id = html`<code>${traceId}</code>`;
  return html`<dt>Trace</dt>
    <dd>${link ? html`<a href="${link}" rel="noopener noreferrer">${id}</a>` : id}</dd>`;
}

export function runBody(
  report: RunReport,
  /** Dead letters of the run in all: the report lists only the first. */
  deadLetters: number,
  timeline: TimelinePoint[],
  principal: Principal,
  now: number,
  /** For an operator, on a finished run: what undoing it would send. */
  undo?: UndoResult,
  /** For a run the value guards stopped: the allows refused (audited), newest first. */
  refusals: readonly AuditEntry[] = [],
  /** telemetry.traceUrl: the run's trace links to its page in the tracing backend. */
  traceUrl?: string,
  /** The platform's name, where the installation has several (its URL: the report's). */
  platformName?: string,
): SafeHtml {
  const t = report.items;
  const running =
    report.status === 'running' || report.status === 'cancelling' || report.status === 'blocked';
  const operator = principal.role === 'operator';
  const base = `/runs/${encodeURIComponent(report.runId)}`;
  return html`<p class="muted">
      <a href="/runs?pipeline=${report.pipeline}">Runs of ${report.pipeline}</a>
    </p>
    <h1>${report.runId} ${badge(report.status, runStatusText(report.status, report.inFlight))}</h1>
    ${report.status === 'blocked' ? blockedSection(report, principal) : ''}
    ${report.status === 'cancelled' && t.cancelled > 0 ? html`<div class="notice warn">Cancelled: ${count(t.cancelled)} planned item(s) were not sent. The pipeline's next run plans them again.</div>` : ''}
    ${report.wantedDeletes ? guardSection(report, principal) : report.guards ? valueGuardSection(report, principal, refusals, now) : report.reason ? html`<div class="notice warn">${report.reason}</div>` : ''}
    <div class="card" data-action-scope>
      <dl class="kv">
        <dt>Pipeline</dt>
        <dd>
          <a href="/pipelines/${report.pipeline}">${report.pipeline}</a
          >${report.version > 0 ? html` (version ${versionText(report.version)})` : ''}
        </dd>
        <dt>Kind</dt>
        <dd data-kind="${report.kind}">${kindText(report)}</dd>
        <dt>Started</dt>
        <dd>
          ${when(report.startedAt, now)} by
          ${report.trigger}${report.startedBy ? ` (${report.startedBy})` : ''}${report.planSeconds === undefined ? '' : `, after ${durationText(report.planSeconds)} reading and planning`}
        </dd>
        ${report.traceId ? traceRow(report.traceId, traceLink(traceUrl, report.traceId)) : ''}
        <dt>Finished</dt>
        <dd>
          ${report.finishedAt ? html`${when(report.finishedAt, now)} after ${report.seconds === undefined ? '' : durationText(report.seconds)}` : html`<span class="muted">not yet</span>`}
        </dd>
        ${
          report.platform || platformName
            ? html`<dt>Platform</dt>
                <dd>
                  ${platformName ? html`<b data-platform>${platformName}</b>` : ''}
                  <span class="mono">${report.platform ?? ''}</span>
                </dd>`
            : ''
        }
        ${sourceRow(report)}
        <dt>Items</dt>
        <dd>
          ${
            report.status === 'guard_stopped'
              ? 'none sent: the run stopped before delivery'
              : html`${count(t.settled)} of ${count(t.planned)} settled: ${count(t.delivered)}
                delivered, ${count(t.failed)} failed, ${count(t.stale)}
                stale${t.cancelled ? `, ${count(t.cancelled)} cancelled` : ''};
                ${count(t.unchanged)} unchanged (not planned)`
          }
        </dd>
        ${report.forecast ? forecastRow(report.forecast, now) : ''}
      </dl>
      ${
        running && operator && report.status !== 'cancelling'
          ? html`<p class="bar">
              <button
                class="danger"
                data-post="/api/runs/${report.runId}/cancel"
                data-confirm="Cancel run ${report.runId}? Nothing more of it is sent: the requests out finish, then each job stops."
                data-then="refresh"
              >
                Cancel this run
              </button>
            </p>`
          : ''
      }
      <div data-result></div>
    </div>
    ${
      report.stages.length === 0
        ? ''
        : html`<h2>Items delivered over time</h2>
            <div class="card">
              ${chart('timeline', {
                x: timeline.map((p) => p.at),
                ys: [timeline.map((p) => p.delivered)],
                series: [
                  { label: 'delivered per 10 s', color: '#17803d', fill: 'rgba(23,128,61,.12)' },
                ],
                yLabel: 'items / 10 s',
                empty: report.finishedAt ? 'Nothing was delivered.' : 'Nothing delivered yet.',
              })}
            </div>
            <h2>Operations</h2>
            <table>
              <thead>
                <tr>
                  <th>Operation</th>
                  <th class="num">Planned</th>
                  <th class="num">Delivered</th>
                  <th class="num">Failed</th>
                  <th class="num">Stale</th>
                  <th class="num">Cancelled</th>
                  <th class="num">Unchanged</th>
                </tr>
              </thead>
              <tbody>
                ${Object.entries(report.operations).map(
                  ([id, c]) =>
                    html`<tr>
                      <td><code>${id}</code></td>
                      <td class="num">${count(c.planned)}</td>
                      <td class="num">${count(c.delivered)}</td>
                      <td class="num">${c.failed ? html`<b>${count(c.failed)}</b>` : '0'}</td>
                      <td class="num">${count(c.stale)}</td>
                      <td class="num">${count(c.cancelled)}</td>
                      <td class="num">${count(c.skipped)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
            <h2>Stages</h2>
            <table>
              <thead>
                <tr>
                  <th>Stage</th>
                  <th>Operations</th>
                  <th class="num">Jobs</th>
                  <th class="num">Requests</th>
                </tr>
              </thead>
              <tbody>
                ${report.stages.map(
                  (s) =>
                    html`<tr>
                      <td>${s.index + 1}</td>
                      <td>
                        ${s.operationIds.map((id, i) => html`${i ? ', ' : ''}<code>${id}</code>`)}
                      </td>
                      <td class="num">${count(s.jobs)}</td>
                      <td class="num">${count(s.requests)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
    }
    <h2>Rejected rows <span class="muted">(${count(report.rejected)})</span></h2>
    ${
      report.errors.length === 0
        ? html`<p class="muted">
            ${
              report.kind === 'sync' || report.kind === 'export'
                ? 'Every row of the source was read and mapped.'
                : 'None: a run of this kind reads no source file.'
            }
          </p>`
        : html`<table>
              <thead>
                <tr>
                  <th>Where</th>
                  <th>Key</th>
                  <th>Field</th>
                  <th>Problem</th>
                </tr>
              </thead>
              <tbody>
                ${report.errors.slice(0, ERRORS_SHOWN).map(
                  (e) =>
                    html`<tr>
                      <td class="mono path">${e.file}:${e.line}</td>
                      <td>
                        ${e.key === undefined ? html`<span class="muted">not read</span>` : html`<a class="mono" href="/entities?pipeline=${encodeURIComponent(report.pipeline)}&key=${encodeURIComponent(e.key)}">${e.key}</a>`}
                      </td>
                      <td><code>${e.field ?? ''}</code></td>
                      <td class="wrap">${e.message}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
            ${report.errors.length > ERRORS_SHOWN ? html`<p class="muted">The first ${ERRORS_SHOWN} are shown; the failures CSV has them all.</p>` : ''}`
    }
    <h2>Dead letters <span class="muted">(${count(deadLetters)})</span></h2>
    ${
      report.deadLetters.length === 0
        ? html`<p class="muted">None.</p>`
        : html`<table>
              <thead>
                <tr>
                  <th>Dead letter</th>
                  <th>Operation</th>
                  <th>Keys</th>
                  <th>Status</th>
                  <th>Error</th>
                  <th>Source</th>
                </tr>
              </thead>
              <tbody>
                ${report.deadLetters.map(
                  (d) =>
                    html`<tr>
                      <td><a href="/dead-letters/${d.id}">${d.id}</a></td>
                      <td><code>${d.operationId}</code></td>
                      <td class="mono">${d.keys.join(', ')}</td>
                      <td>${d.status ?? '—'}</td>
                      <td>
                        <code>${d.errorCode}</code>
                        <div>${d.error ?? d.message}</div>
                      </td>
                      <td class="mono path">
                        ${d.source.map((s) => `${s.file}:${s.line}`).join(', ')}
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>
            ${deadLetters > report.deadLetters.length ? html`<p><a href="/dead-letters?run=${report.runId}">All ${count(deadLetters)} dead letters of this run</a> (to search, replay or export).</p>` : ''}`
    }
    ${undo ? undoSection(undo) : ''}
    <h2>Report</h2>
    <p class="bar">
      <a class="button" href="${base}/report.json" download>Report (JSON)</a>
      <a class="button" href="${base}/failures.csv" download
        >Rejected rows and dead letters (CSV)</a
      >
    </p>`;
}

/** A running run's forecast: requests left, the rate, when it ends (docs/DELIVERY.md). */
function forecastRow(forecast: RunForecast, now: number): SafeHtml {
  return html`<dt>Forecast</dt>
    <dd data-forecast>
      ${forecastText(forecast)}${forecast.finishAt ? html`: ends ${when(forecast.finishAt, now)}` : ''}
    </dd>`;
}

/** A run whose delivery the breaker paused: why, what Ferry does meanwhile, and the resume. */
function blockedSection(report: RunReport, principal: Principal): SafeHtml {
  return html`<div class="notice bad" data-action-scope>
    <p class="reason">${report.blockedReason ?? 'Delivery blocked.'}</p>
    ${
      principal.role === 'operator'
        ? html`<p class="bar">
            <button
              class="primary"
              data-post="/api/runs/${report.runId}/resume"
              data-confirm="Resume run ${report.runId} now? If the platform still refuses, it is blocked again after a few requests."
              data-then="refresh"
            >
              Resume delivery now
            </button>
            <span
              >Once the credential or the interface settings are fixed; if the platform still
              refuses, the run is blocked again after a few requests.</span
            >
          </p>`
        : html`<p>An operator can resume it from this page once the cause is fixed.</p>`
    }
    <div data-result></div>
  </div>`;
}

/** A run the mass-delete guard stopped: what it wanted to delete, and the decision. */
function guardSection(report: RunReport, principal: Principal): SafeHtml {
  const wanted = report.wantedDeletes!;
  const share =
    wanted.inState > 0 ? Math.round((wanted.deletes / wanted.inState) * 1000) / 10 : 100;
  const decided = report.deletesAllowed;
  return html`<div class="notice bad" data-action-scope>
    <p>
      <b>Stopped by the mass-delete guard before sending anything.</b> The source no longer holds
      ${count(wanted.deletes)} of the ${count(wanted.inState)} entities Ferry delivered (${share}%;
      the pipeline allows ${Math.round(wanted.maxShare * 1000) / 10}%). ${count(wanted.rows)} rows
      were read. If the export is complete and these entities are really gone from the ERP, allow
      the deletes once; if the export is short or broken, fix it and run again.
    </p>
    <table>
      <thead>
        <tr>
          <th>Delete operation</th>
          <th class="num">Deletes</th>
        </tr>
      </thead>
      <tbody>
        ${Object.entries(wanted.operations).map(
          ([id, n]) =>
            html`<tr>
              <td><code>${id}</code></td>
              <td class="num">${count(n)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    <p>
      Some of the keys:
      ${wanted.sample.map((s, i) => html`${i ? ', ' : ''}<a class="mono" href="/entities?pipeline=${report.pipeline}&key=${encodeURIComponent(s.key)}">${s.key}</a>`)}${wanted.deletes > wanted.sample.length ? ', …' : ''}
    </p>
    ${
      decided
        ? html`<p>
            Allowed once by ${decided.by}:
            <a href="/runs/${decided.runId}">run ${decided.runId}</a>.
          </p>`
        : principal.role === 'operator'
          ? html`<p class="bar">
              <button
                class="danger"
                data-post="/api/runs/${report.runId}/allow-deletes"
                data-then="run"
                data-confirm="Run ${report.pipeline} again now, allowing exactly these ${wanted.deletes} deletes? If the source wants more, the guard stops it again."
              >
                Allow these ${count(wanted.deletes)} deletes once and run again
              </button>
            </p>`
          : html`<p>An operator can allow these deletes once from this page.</p>`
    }
    <div data-result></div>
  </div>`;
}

/** The run's page, and the report and failures it links to (built from Redis). */
/** The refused allows of a stopped run, from the audit trail's recent entries. */
async function allowRefusals(ctx: ServeContext, runId: string): Promise<AuditEntry[]> {
  return (await readAudit(ctx.redis, ctx.keys, 1_000)).filter(
    (e) => e.action === 'run.allow-guard-refused' && e.target === runId,
  );
}

export function registerRunPage(app: FastifyInstance, ctx: ServeContext): void {
  const byRun = { params: strings(['runId'], ['runId']) };
  app.get<{ Params: { runId: string } }>(
    '/runs/:runId',
    pageRoute(byRun),
    async (request, reply) => {
      const { runId } = request.params;
      const platform = await runPlatform(ctx, request.principal!, runId);
      const report = await buildRunReport(ctx.redis, ctx.keys, ctx.dlq, runId, {
        deadLetterLimit: DEAD_LETTERS_SHOWN,
      });
      const deadLetters = await ctx.dlq.count({ runId });
      const timeline = await readRunTimeline(ctx.redis, ctx.keys, runId, {
        from: Date.parse(report.startedAt),
        to: report.finishedAt ? Date.parse(report.finishedAt) : Date.now(),
      });
      // A blocked run goes on by itself once a probe passes: the page follows it.
      const running = ['running', 'cancelling', 'blocked'].includes(report.status);
      const undo = await undoPreview(ctx, request.principal!, report);
      const refusals = report.guards ? await allowRefusals(ctx, runId) : [];
      return sendPage(
        reply,
        { title: runId, section: 'runs', charts: true, ...(running ? { liveMs: LIVE_MS } : {}) },
        runBody(
          report,
          deadLetters,
          timeline,
          request.principal!,
          Date.now(),
          undo,
          refusals,
          ctx.config.telemetry.traceUrl,
          Object.keys(ctx.config.platforms).length > 0 ? platform : undefined,
        ),
      );
    },
  );

  app.get<{ Params: { runId: string } }>(
    '/runs/:runId/report.json',
    fileRoute(byRun),
    async (request, reply) => {
      await runPlatform(ctx, request.principal!, request.params.runId);
      const report = await buildRunReport(ctx.redis, ctx.keys, ctx.dlq, request.params.runId);
      return reply
        .header('content-disposition', `attachment; filename="${report.runId}.json"`)
        .type('application/json')
        .send(`${JSON.stringify(report, null, 2)}\n`);
    },
  );

  app.get<{ Params: { runId: string } }>(
    '/runs/:runId/failures.csv',
    fileRoute(byRun),
    async (request, reply) => {
      await runPlatform(ctx, request.principal!, request.params.runId);
      const report = await buildRunReport(ctx.redis, ctx.keys, ctx.dlq, request.params.runId);
      return reply
        .header('content-disposition', `attachment; filename="${report.runId}-failures.csv"`)
        .type('text/csv; charset=utf-8')
        .send(failuresCsv(report.errors, report.deadLetters));
    },
  );
}
