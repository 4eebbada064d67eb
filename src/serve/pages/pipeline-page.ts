/**
 * `/pipelines/{name}`: one pipeline. Its schedule (pause and resume for an operator's maintenance
 * window), "Run now" from its own source (as `POST /api/pipelines/{name}/run`), an upload form
 * that imports a file now (as `POST /api/pipelines/{name}/runs`), and its latest runs.
 */
import type { FastifyInstance } from 'fastify';
import type { RunLine } from '../../runs/index.js';
import { readLastReconciliations, type LastReconciliation } from '../../reconcile/index.js';
import { readRunPage } from '../read-runs.js';
import { readPipelines, type PipelineView } from '../routes/api-pipelines.js';
import { platformOfPipeline } from '../platform-scope.js';
import { pipelineNotFound, resolveTarget } from '../pipeline-targets.js';
import type { ServeContext } from '../serve-context.js';
import type { Principal } from '../tokens.js';
import { badge, brief, count, when } from './format.js';
import { html, type SafeHtml } from './html.js';
import { LIVE_MS, pageRoute, sendPage, strings } from './page-route.js';
import { platformLabel } from './platform-filter.js';

/** The pipeline's latest runs on its page; /runs has them all. */
const RUNS_SHOWN = 20;

export function pipelineBody(
  view: PipelineView,
  runs: RunLine[],
  principal: Principal,
  uploadMaxBytes: number,
  drift: LastReconciliation | undefined,
  now: number,
  /** Its platform, named with its base URL, where the installation has several. */
  platform?: SafeHtml,
): SafeHtml {
  const operator = principal.role === 'operator';
  const name = encodeURIComponent(view.name);
  return html`<h1>${view.name}</h1>
    ${platform ? html`<p data-platform>Delivers to platform ${platform}</p>` : ''}
    ${view.description ? html`<p>${view.description}</p>` : ''}
    ${view.problem ? html`<div class="notice bad">${view.problem}</div>` : ''}
    <div class="card" data-action-scope>
      <h3>Schedule</h3>
      ${
        view.schedule
          ? html`<p>
                <code>${view.schedule.cron}</code> in ${view.schedule.tz}
                ${view.paused ? badge('paused') : ''}
                ${view.nextRunAt && !view.paused ? html`· next run ${when(view.nextRunAt, now)}` : ''}
              </p>
              ${
                operator
                  ? html`<p class="bar">
                      ${
                        view.paused
                          ? html`<button
                              class="primary"
                              data-post="/api/pipelines/${name}/schedule/resume"
                              data-then="refresh"
                            >
                              Resume the schedule
                            </button>`
                          : html`<button
                              data-post="/api/pipelines/${name}/schedule/pause"
                              data-confirm="Pause the schedule of ${view.name}? No tick starts a run until it is resumed."
                              data-then="refresh"
                            >
                              Pause the schedule
                            </button>`
                      }
                    </p>`
                  : ''
              }`
          : html`<p class="muted">Runs on demand only (no schedule in its pipeline file).</p>`
      }
      <div data-result></div>
    </div>
    ${
      view.ownSource
        ? html`<div class="card" data-action-scope>
            <h3>Run now</h3>
            <p class="muted">
              Reads its own source, <span class="mono">${view.ownSource}</span>, and delivers what
              changed since the last run, as <code>ferry run ${view.name}</code> does.
            </p>
            ${
              operator
                ? html`<p class="bar">
                    <button
                      class="primary"
                      data-post="/api/pipelines/${name}/run"
                      data-confirm="Start a run of ${view.name} now, from ${view.ownSource}?"
                      data-then="run"
                    >
                      Run now
                    </button>
                  </p>`
                : html`<p class="muted">An operator can start it from here.</p>`
            }
            <div data-result></div>
          </div>`
        : ''
    }
    ${
      operator && view.direction === 'import'
        ? html`<div class="card" data-action-scope data-keep>
            <h3>Import a file now</h3>
            <p class="muted">
              The file is read by the pipeline's connector and delivered at once (lane
              ${view.lane}); at most ${count(Math.floor(uploadMaxBytes / 1024 / 1024))} MiB.
            </p>
            <form
              data-upload
              action="/api/pipelines/${name}/runs"
              method="post"
              enctype="multipart/form-data"
              class="inline"
            >
              <input type="file" name="file" required />
              <button class="primary" type="submit">Import</button>
            </form>
            <div data-result></div>
          </div>`
        : ''
    }
    <div class="card">
      <h3>Reconciliation with the platform</h3>
      ${
        drift
          ? html`<p>
                Last checked ${when(new Date(drift.at).toISOString(), now)}: ${count(drift.checked)}
                entities,
                ${
                  drift.missing + drift.different + drift.unknown === 0
                    ? badge('succeeded', 'no drift')
                    : html`${badge('partial', 'drift')} ${count(drift.missing)} missing on the
                      platform, ${count(drift.different)} different, ${count(drift.unknown)} unknown
                      to Ferry`
                }
                ${drift.repairRunId ? html`· repaired by <a href="/runs/${drift.repairRunId}">${drift.repairRunId}</a>` : ''}
              </p>
              ${drift.csv ? html`<p class="muted">Differences: <span class="mono">${drift.csv}</span></p>` : ''}`
          : html`<p class="muted">
              Never reconciled: <code>ferry reconcile ${view.name}</code> compares what the platform
              holds with what Ferry delivered.
            </p>`
      }
    </div>
    <h2>Latest runs</h2>
    ${
      runs.length === 0
        ? html`<p class="muted">No run yet.</p>`
        : html`<table>
              <thead>
                <tr>
                  <th>Run</th>
                  <th>Status</th>
                  <th>Started</th>
                  <th class="num">Delivered</th>
                  <th class="num">Failed</th>
                  <th>Trigger</th>
                </tr>
              </thead>
              <tbody>
                ${runs.map(
                  (r) =>
                    html`<tr>
                      <td><a href="/runs/${r.runId}">${r.runId}</a></td>
                      <td>
                        ${badge(r.status)}${r.reason ? html`<div class="muted">${brief(r.reason)}</div>` : ''}
                      </td>
                      <td>${when(r.startedAt, now)}</td>
                      <td class="num">${count(r.deliveredItems)}</td>
                      <td class="num">${count(r.failedItems)}</td>
                      <td>${r.trigger}${r.startedBy ? ` (${r.startedBy})` : ''}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
            <p><a href="/runs?pipeline=${name}">All runs of ${view.name}</a></p>`
    }`;
}

export function registerPipelinePage(app: FastifyInstance, ctx: ServeContext): void {
  app.get<{ Params: { name: string } }>(
    '/pipelines/:name',
    pageRoute({ params: strings(['name'], ['name']) }),
    async (request, reply) => {
      const principal = request.principal!;
      const { name } = resolveTarget(ctx.config, principal, request.params.name);
      const views = await readPipelines(ctx, new Set([platformOfPipeline(name)]));
      const view = views.find((p) => p.name === name);
      if (!view) throw pipelineNotFound(ctx.config, principal, request.params.name);
      const { runs } = await readRunPage(ctx, { pipeline: view.name, limit: RUNS_SHOWN });
      const drift = (await readLastReconciliations(ctx.redis, ctx.config.redis.prefix)).find(
        (r) => r.pipeline === view.name,
      );
      return sendPage(
        reply,
        { title: view.name, section: 'overview', liveMs: LIVE_MS },
        pipelineBody(
          view,
          runs,
          principal,
          ctx.config.serve.uploadMaxBytes,
          drift,
          Date.now(),
          Object.keys(ctx.config.platforms).length > 0
            ? platformLabel(ctx.config, view.platform)
            : undefined,
        ),
      );
    },
  );
}
