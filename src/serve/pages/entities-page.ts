/**
 * `/entities`: type a key and see why it is (or is not) on the platform: the verdict in plain
 * words, its committed state per resource with the run that delivered it, the changes recent runs
 * planned for it and what came of each, the rows of it recent runs rejected, and its dead
 * letters.
 */
import type { FastifyInstance } from 'fastify';
import { type EntityTrace, traceEntity, TRACED_RUNS, traceVerdict } from '../../runs/index.js';
import type { ServeContext } from '../serve-context.js';
import { badge, versionText, when } from './format.js';
import { html, type SafeHtml } from './html.js';
import { pageRoute, sendPage, strings } from './page-route.js';
import { platformLabel, platformSelect } from './platform-filter.js';
import { platformFilter, platformOfPipeline, visiblePlatforms } from '../platform-scope.js';
import { listTargets, tracedTarget } from '../pipeline-targets.js';

/** "the last run", "the last 20 runs": the runs an entity's trace searched. */
function lastRuns(n: number): string {
  return n === 1 ? 'the last run' : `the last ${n} runs`;
}

export function entitiesBody(
  pipelines: string[],
  asked: { pipeline?: string | undefined; key?: string | undefined; platform?: string | undefined },
  trace: EntityTrace | undefined,
  now: number,
  /** The platforms the selector offers (none: no selector). */
  platforms: readonly string[] = [],
  /** The traced pipeline's platform, named with its base URL, where there are several. */
  platform?: SafeHtml,
): SafeHtml {
  return html`<h1>Entity trace</h1>
    <p class="muted">
      Why is this product not on the shop? Give its pipeline and key (as the export writes it:
      leading zeros count).
    </p>
    <form class="inline" method="get" action="/entities">
      <select name="pipeline" aria-label="Pipeline">
        ${pipelines.map(
          (p) => html`<option value="${p}" ${p === asked.pipeline ? 'selected' : ''}>${p}</option>`,
        )}
      </select>
      ${platformSelect(platforms, asked.platform)}
      <input
        type="search"
        name="key"
        placeholder="Key, e.g. 000123"
        value="${asked.key ?? ''}"
        required
      />
      <button class="primary" type="submit">Trace</button>
    </form>
    ${trace ? traceSection(trace, now, platform) : ''}`;
}

function traceSection(trace: EntityTrace, now: number, platform?: SafeHtml): SafeHtml {
  return html`<div class="card">
      <h3>${trace.pipeline} · <span class="mono">${trace.key}</span></h3>
      ${platform ? html`<p>Platform ${platform}</p>` : ''}
      ${traceVerdict(trace).map((line) => html`<p>${line}</p>`)}
    </div>
    <h2>Committed state</h2>
    ${
      trace.states.length === 0
        ? html`<p class="muted">
            Ferry holds no state for this key: no run of ${trace.pipeline} delivered it.
          </p>`
        : html`<table>
            <thead>
              <tr>
                <th>Entity</th>
                <th>Resource</th>
                <th>State</th>
                <th>Hash</th>
                <th>Version</th>
                <th>Delivered by</th>
              </tr>
            </thead>
            <tbody>
              ${trace.states.map(
                (s) =>
                  html`<tr>
                    <td>${s.entity}</td>
                    <td>${s.resource}</td>
                    <td>
                      ${s.deleted ? badge('cancelled', 'deleted') : badge('succeeded', 'present')}
                    </td>
                    <td class="mono">${s.hash ? s.hash.slice(0, 16) : '—'}</td>
                    <td>${versionText(s.version)}</td>
                    <td>
                      ${s.committed ? html`<a href="/runs/${s.committed.runId}">${s.committed.runId}</a> ${when(s.committed.to, now)}` : html`<span class="muted">not recorded</span>`}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
    <h2>Changes planned by ${lastRuns(trace.runsSearched)}</h2>
    ${
      trace.changes.length === 0
        ? html`<p class="muted">None of them planned a change for this key.</p>`
        : html`<table>
            <thead>
              <tr>
                <th>Run</th>
                <th>Started</th>
                <th>Operation</th>
                <th>Change</th>
                <th>Outcome</th>
                <th>Trace</th>
              </tr>
            </thead>
            <tbody>
              ${trace.changes.map(
                (c) =>
                  html`<tr>
                    <td><a href="/runs/${c.runId}">${c.runId}</a> ${badge(c.runStatus)}</td>
                    <td>${when(c.startedAt, now)}</td>
                    <td><code>${c.operationId}</code></td>
                    <td>${c.change}</td>
                    <td>
                      ${badge(outcomeClass(c.outcome), c.outcome.replace('_', ' '))}${c.deadLetterId ? html` <a href="/dead-letters/${c.deadLetterId}">${c.deadLetterId}</a>` : ''}
                    </td>
                    <td>${traceCell(c)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
    <h2>Rejected rows in ${lastRuns(trace.runsSearched)}</h2>
    ${
      trace.rejected.length === 0
        ? html`<p class="muted">No row with this key was rejected.</p>`
        : html`<table>
            <thead>
              <tr>
                <th>Run</th>
                <th>Started</th>
                <th>File</th>
                <th>Line</th>
                <th>Field</th>
                <th>Why</th>
              </tr>
            </thead>
            <tbody>
              ${trace.rejected.map(
                (r) =>
                  html`<tr>
                    <td><a href="/runs/${r.runId}">${r.runId}</a></td>
                    <td>${when(r.startedAt, now)}</td>
                    <td class="mono path">${r.file}</td>
                    <td>${r.line}</td>
                    <td>${r.field ? html`<code>${r.field}</code>` : '—'}</td>
                    <td class="wrap">${r.message}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
    <h2>Dead letters</h2>
    ${
      trace.deadLetters.length === 0
        ? html`<p class="muted">None.</p>`
        : html`<table>
            <thead>
              <tr>
                <th>Dead letter</th>
                <th>When</th>
                <th>Operation</th>
                <th>Error</th>
              </tr>
            </thead>
            <tbody>
              ${trace.deadLetters.map(
                (d) =>
                  html`<tr>
                    <td><a href="/dead-letters/${d.id}">${d.id}</a></td>
                    <td>${when(d.at, now)}</td>
                    <td><code>${d.operationId}</code></td>
                    <td><code>${d.errorCode}</code> ${d.message}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }`;
}

/** The run's trace id, linked to the tracing backend when telemetry.traceUrl is configured. */
function traceCell(c: EntityTrace['changes'][number]): SafeHtml | string {
  if (!c.traceId) return '';
  const id = html`<code title="${c.traceId}">${c.traceId.slice(0, 12)}…</code>`;
  return c.traceUrl ? html`<a href="${c.traceUrl}" rel="noopener noreferrer">${id}</a>` : id;
}

function outcomeClass(outcome: EntityTrace['changes'][number]['outcome']): string {
  switch (outcome) {
    case 'delivered':
    case 'replayed':
      return 'succeeded';
    case 'dead_lettered':
    case 'not_delivered':
      return 'failed';
    case 'pending':
      return 'running';
    default:
      return 'skipped';
  }
}

export function registerEntitiesPage(app: FastifyInstance, ctx: ServeContext): void {
  app.get<{ Querystring: { pipeline?: string; key?: string; platform?: string } }>(
    '/entities',
    pageRoute({ querystring: strings(['pipeline', 'key', 'platform']) }),
    async (request, reply) => {
      const principal = request.principal!;
      const platform = request.query.platform || undefined;
      const filter = platformFilter(ctx.config, principal, platform);
      const pipelines = listTargets(ctx.config, filter).map((t) => t.name);
      // A pipeline of another platform than the one just picked gives way to the platform's first.
      const named = request.query.pipeline || undefined;
      const pipeline = named && (!platform || pipelines.includes(named)) ? named : pipelines[0];
      const key = request.query.key?.trim() || undefined;
      const trace =
        pipeline && key
          ? await traceEntity(ctx, tracedTarget(ctx, principal, pipeline), key, TRACED_RUNS)
          : undefined;
      const several = Object.keys(ctx.config.platforms).length > 0;
      return sendPage(
        reply,
        { title: key ? `Trace ${key}` : 'Entity trace', section: 'entities' },
        entitiesBody(
          pipelines,
          { pipeline, key, platform },
          trace,
          Date.now(),
          visiblePlatforms(ctx.config, principal),
          trace && several
            ? platformLabel(ctx.config, platformOfPipeline(trace.pipeline))
            : undefined,
        ),
      );
    },
  );
}
