/**
 * `/runs`: the latest runs, newest first, a page at a time, filtered by pipeline, status and
 * platform (a token scoped to platforms sees theirs only).
 */
import type { FastifyInstance } from 'fastify';
import { platformFilter, platformOfPipeline, visiblePlatforms } from '../platform-scope.js';
import { listTargets } from '../pipeline-targets.js';
import { readRunPage, type RunPage } from '../read-runs.js';
import type { ServeContext } from '../serve-context.js';
import { badge, brief, count, when } from './format.js';
import { html, type SafeHtml } from './html.js';
import { LIVE_MS, PAGE_SIZE, pageRoute, sendPage, strings } from './page-route.js';
import { platformSelect } from './platform-filter.js';

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
  filter: {
    pipeline?: string | undefined;
    status?: string | undefined;
    platform?: string | undefined;
    pipelines: string[];
    /** The platforms the selector offers (none: no selector). */
    platforms?: readonly string[];
  },
  now: number,
): SafeHtml {
  const platforms = filter.platforms ?? [];
  const params = new URLSearchParams();
  if (filter.pipeline) params.set('pipeline', filter.pipeline);
  if (filter.status) params.set('status', filter.status);
  if (filter.platform) params.set('platform', filter.platform);
  if (page.nextCursor) params.set('cursor', page.nextCursor);
  const next = page.nextCursor ? `/runs?${params.toString()}` : undefined;
  const which = [filter.pipeline, filter.status?.replace('_', ' '), filter.platform]
    .filter(Boolean)
    .join(', ');
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
      ${platformSelect(platforms, filter.platform)}
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
                      <div class="muted">
                        ${r.pipeline}${platforms.length > 1 ? html` · <span data-platform>${platformOfPipeline(r.pipeline)}</span>` : ''}
                      </div>
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
  app.get<{
    Querystring: { pipeline?: string; status?: string; platform?: string; cursor?: string };
  }>(
    '/runs',
    pageRoute({ querystring: strings(['pipeline', 'status', 'platform', 'cursor']) }),
    async (request, reply) => {
      const principal = request.principal!;
      const pipeline = request.query.pipeline || undefined;
      const platform = request.query.platform || undefined;
      const platforms = platformFilter(ctx.config, principal, platform);
      const status = (RUN_STATUSES as readonly string[]).includes(request.query.status ?? '')
        ? request.query.status
        : undefined;
      const cursor = /^[0-9]+$/.test(request.query.cursor ?? '') ? request.query.cursor : undefined;
      const runs = await readRunPage(ctx, {
        pipeline,
        status,
        platforms,
        limit: PAGE_SIZE,
        cursor,
      });
      const filter = {
        pipeline,
        status,
        platform,
        pipelines: listTargets(ctx.config, platforms).map((t) => t.name),
        platforms: visiblePlatforms(ctx.config, principal),
      };
      return sendPage(
        reply,
        { title: 'Runs', section: 'runs', liveMs: LIVE_MS },
        runsBody(runs, filter, Date.now()),
      );
    },
  );
}
