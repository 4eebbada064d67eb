/** `/runs`: the latest runs, newest first, a page at a time, filtered by pipeline and status. */
import type { FastifyInstance } from 'fastify';
import { pipelineNames } from '../../pipeline/index.js';
import { readRunPage, type RunPage } from '../read-runs.js';
import type { ServeContext } from '../serve-context.js';
import { badge, brief, count, when } from './format.js';
import { html, type SafeHtml } from './html.js';
import { LIVE_MS, PAGE_SIZE, pageRoute, sendPage, strings } from './page-route.js';

/** The statuses the filter offers, in the order a person looks for them. */
export const RUN_STATUSES = [
  'running',
  'blocked',
  'cancelling',
  'partial',
  'failed',
  'guard_stopped',
  'succeeded',
  'cancelled',
  'skipped',
] as const;

export function runsBody(
  page: RunPage,
  filter: { pipeline?: string | undefined; status?: string | undefined; pipelines: string[] },
  now: number,
): SafeHtml {
  const params = new URLSearchParams();
  if (filter.pipeline) params.set('pipeline', filter.pipeline);
  if (filter.status) params.set('status', filter.status);
  if (page.nextCursor) params.set('cursor', page.nextCursor);
  const next = page.nextCursor ? `/runs?${params.toString()}` : undefined;
  const which = [filter.pipeline, filter.status?.replace('_', ' ')].filter(Boolean).join(', ');
  return html`<h1>Runs</h1>
    <form class="inline" method="get" action="/runs">
      <label for="pipeline">Pipeline</label>
      <select id="pipeline" name="pipeline">
        <option value="">all</option>
        ${filter.pipelines.map(
          (p) =>
            html`<option value="${p}" ${p === filter.pipeline ? 'selected' : ''}>${p}</option>`,
        )}
      </select>
      <label for="status">Status</label>
      <select id="status" name="status">
        <option value="">any</option>
        ${RUN_STATUSES.map(
          (st) =>
            html`<option value="${st}" ${st === filter.status ? 'selected' : ''}>
              ${st.replace('_', ' ')}
            </option>`,
        )}
      </select>
      <button type="submit">Show</button>
    </form>
    ${
      page.runs.length === 0
        ? html`<p class="muted">
            ${which ? `No run (${which}) in the last 30 days.` : 'No run yet.'}
          </p>`
        : html`<table>
            <thead>
              <tr>
                <th>Run</th>
                <th>Kind</th>
                <th>Status</th>
                <th>Started</th>
                <th class="num">Seconds</th>
                <th class="num">Planned</th>
                <th class="num">Delivered</th>
                <th class="num">Failed</th>
                <th class="num">Rejected rows</th>
                <th>Trigger</th>
              </tr>
            </thead>
            <tbody>
              ${page.runs.map(
                (r) =>
                  html`<tr>
                    <td>
                      <a href="/runs/${r.runId}">${r.runId}</a>
                      <div class="muted">${r.pipeline}</div>
                    </td>
                    <td data-kind="${r.kind}">
                      ${r.kind}${r.undoOf ? html`<div class="muted">of <a href="/runs/${r.undoOf}">${r.undoOf}</a></div>` : ''}
                    </td>
                    <td>
                      ${badge(r.status)}${r.reason ? html`<div class="muted">${brief(r.reason)}</div>` : ''}
                      ${r.blockedReason ? html`<div>${brief(r.blockedReason, false)} <a href="/runs/${r.runId}">Resume or cancel</a></div>` : ''}
                    </td>
                    <td>${when(r.startedAt, now)}</td>
                    <td class="num">${r.seconds !== undefined ? r.seconds.toFixed(1) : ''}</td>
                    <td class="num">${count(r.plannedItems)}</td>
                    <td class="num">${count(r.deliveredItems)}</td>
                    <td class="num">
                      ${r.failedItems ? html`<b>${count(r.failedItems)}</b>` : '0'}
                    </td>
                    <td class="num">${count(r.rejected)}</td>
                    <td>
                      ${r.trigger}${r.startedBy ? html` <span class="muted">by ${r.startedBy}</span>` : ''}${r.lateSeconds ? html`<div class="muted">${r.lateSeconds} s late</div>` : ''}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
    ${next ? html`<p><a class="button" href="${next}">Older runs</a></p>` : ''}`;
}

export function registerRunsPage(app: FastifyInstance, ctx: ServeContext): void {
  app.get<{ Querystring: { pipeline?: string; status?: string; cursor?: string } }>(
    '/runs',
    pageRoute({ querystring: strings(['pipeline', 'status', 'cursor']) }),
    async (request, reply) => {
      const pipeline = request.query.pipeline || undefined;
      const status = (RUN_STATUSES as readonly string[]).includes(request.query.status ?? '')
        ? request.query.status
        : undefined;
      const cursor = /^[0-9]+$/.test(request.query.cursor ?? '') ? request.query.cursor : undefined;
      const runs = await readRunPage(ctx, { pipeline, status, limit: PAGE_SIZE, cursor });
      return sendPage(
        reply,
        { title: 'Runs', section: 'runs', liveMs: LIVE_MS },
        runsBody(runs, { pipeline, status, pipelines: pipelineNames(ctx.config) }, Date.now()),
      );
    },
  );
}
