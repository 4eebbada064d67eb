/**
 * `/`: the state of the installation at a glance. Each pipeline with its last run (status, age,
 * items) and its run in progress, a section per platform with its base URL when there are several
 * (`?platform=` one), the queues by lane, the items delivered per minute over the last hour (the
 * installation's: not for a token scoped to platforms), the latest operator actions, and a change
 * of the platform's description to the pinned one not accepted yet.
 */
import {
  itemTotals,
  settledItems,
  type RunRecord,
  requestsInFlight,
  runStatusText,
} from '../../runs/index.js';
import type { FastifyInstance } from 'fastify';
import { readOverview, type Overview, type PipelineCard } from '../read-overview.js';
import { platformFilter, visiblePlatforms } from '../platform-scope.js';
import type { ServeContext } from '../serve-context.js';
import { chart } from './chart.js';
import { ago, badge, brief, count, when } from './format.js';
import { html, type SafeHtml } from './html.js';
import { LIVE_MS, pageRoute, sendPage, strings } from './page-route.js';
import { platformLabel, platformPicker } from './platform-filter.js';

function lastRunCell(card: PipelineCard, now: number): SafeHtml {
  const run = card.lastRun;
  if (!run) return html`${badge('never', 'never run')}`;
  const totals = itemTotals(run.operations);
  const at = run.finishedAt ?? run.createdAt;
  return html`<a href="/runs/${run.id}">${badge(run.status)}</a>
    <span title="${new Date(at).toISOString()}">${ago(at, now)}</span>
    <div class="muted">
      ${count(totals.delivered)}
      delivered${totals.failed ? html`, <b>${count(totals.failed)} failed</b>` : ''}${run.rejected ? `, ${count(run.rejected)} rows rejected` : ''}${run.reason ? html` · ${brief(run.reason)}` : ''}
    </div>`;
}

function activeCell(run: RunRecord | undefined, now: number): SafeHtml {
  if (!run) return html`<span class="muted">idle</span>`;
  const { done, planned } = settledItems(run);
  const share = planned > 0 ? Math.floor((done / planned) * 100) : 0;
  return html`<a href="/runs/${run.id}"
      >${badge(run.status, runStatusText(run.status, requestsInFlight(run)))}</a
    >
    ${share}%
    <div class="muted">
      ${count(done)} of ${count(planned)} settled · started ${ago(run.createdAt, now)}
    </div>
    ${run.status === 'blocked' ? blockedNote(run) : ''}`;
}

/** A blocked delivery: the platform's refusal in brief, and where to act on it. */
function blockedNote(run: RunRecord): SafeHtml {
  return html`<div class="reason">
    ${run.blockedReason ? brief(run.blockedReason, false) : 'Delivery paused.'}
    <a href="/runs/${run.id}">Resume or cancel it on the run's page</a>
  </div>`;
}

/** Why a pipeline is in the overview's "need a look" notice. */
function needsLook(card: PipelineCard): string[] {
  const why: string[] = [];
  if (card.active?.status === 'blocked') why.push('delivery blocked');
  const last = card.lastRun?.status ?? '';
  if (['partial', 'failed', 'guard_stopped'].includes(last)) {
    why.push(`last run ${last.replace('_', ' ')}`);
  }
  if (card.deadLetters > 0) why.push(`${count(card.deadLetters)} dead letters`);
  return why;
}

/** The platform's description changed since it was pinned: what it means and the command. */
function contractNotice(o: Overview): SafeHtml | '' {
  const c = o.contract;
  if (!c) return '';
  return html`<div class="notice ${c.breaking > 0 ? 'bad' : 'warn'}" id="contract-notice">
    The platform's description changed since it was pinned (${c.pinned.slice(0, 12)} →
    ${c.seen.slice(0, 12)}, seen ${ago(c.checkedAt, o.now)}): ${count(c.breaking)} breaking,
    ${count(c.nonBreaking)} other change(s).
    ${c.breaking > 0 ? 'Runs that use the changed operations are refused. ' : ''}See
    <code>ferry interface diff</code>, then <code>ferry interface accept</code>.
  </div>`;
}

function scheduleCell(card: PipelineCard, now: number): SafeHtml {
  const { schedule, nextRunAt, paused } = card.view;
  if (!schedule) return html`<span class="muted">on demand</span>`;
  return html`<code>${schedule.cron}</code> <span class="muted">${schedule.tz}</span>
    ${paused ? badge('paused') : ''}
    <div class="muted">${nextRunAt && !paused ? html`next ${when(nextRunAt, now)}` : ''}</div>`;
}

/** A platform's section of the overview: its name and base URL, with the picker's choices. */
export interface PlatformSection {
  name: string;
  label: SafeHtml;
}

/** The pipelines' table: one, or one per platform under its name and base URL. */
function pipelineSections(
  cards: PipelineCard[],
  now: number,
  platforms: readonly PlatformSection[],
): SafeHtml {
  if (platforms.length === 0)
    return html`<h2>Pipelines</h2>
      ${pipelineTable(cards, now)}`;
  return html`${platforms.map(
    (p) =>
      html`<section class="platform" data-platform="${p.name}">
        <h2>Platform ${p.label}</h2>
        ${pipelineTable(
          cards.filter((c) => c.view.platform === p.name),
          now,
        )}
      </section>`,
  )}`;
}

function pipelineTable(cards: PipelineCard[], now: number): SafeHtml {
  if (cards.length === 0) return html`<p class="muted">No pipeline delivers to it.</p>`;
  return html`<table>
    <thead>
      <tr>
        <th>Pipeline</th>
        <th>Schedule</th>
        <th>Last run</th>
        <th>Now</th>
        <th class="num">Dead letters</th>
      </tr>
    </thead>
    <tbody>
      ${cards.map(
        (c) =>
          html`<tr>
            <td>
              <a href="/pipelines/${c.view.name}"><b>${c.view.name}</b></a>
              <div class="muted">${c.view.description ?? ''}</div>
              ${c.view.problem ? html`<div class="notice bad">${c.view.problem}</div>` : ''}
            </td>
            <td>${scheduleCell(c, now)}</td>
            <td>${lastRunCell(c, now)}</td>
            <td>${activeCell(c.active, now)}</td>
            <td class="num">
              ${
                c.deadLetters > 0
                  ? html`<a href="/dead-letters?pipeline=${c.view.name}"
                      >${badge('dead', count(c.deadLetters))}</a
                    >`
                  : '0'
              }
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** The installation's lanes and throughput, every platform's together (absent for a filter). */
function sharedSections(o: Overview): SafeHtml | '' {
  if (!o.queues || !o.throughput) return '';
  const { throughput } = o;
  const lanes = o.queues.filter((q) => q.queue.startsWith('delivery-'));
  const thisHour = throughput.reduce((n, p) => n + p.delivered, 0);
  return html` <h2>Queues</h2>
    <table>
      <thead>
        <tr>
          <th>Lane</th>
          <th class="num">Waiting</th>
          <th class="num">Active</th>
          <th class="num">Delayed</th>
          <th class="num">Failed</th>
          <th class="num">Paused</th>
        </tr>
      </thead>
      <tbody>
        ${lanes.map(
          (q) =>
            html`<tr>
              <td>${q.queue.replace('delivery-', '')}</td>
              <td class="num">${count(q.counts.waiting)}</td>
              <td class="num">${count(q.counts.active)}</td>
              <td class="num">${count(q.counts.delayed)}</td>
              <td class="num">${count(q.counts.failed)}</td>
              <td class="num">${count(q.counts.paused)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    <p class="muted">
      Jobs by state in each delivery lane; the <a href="/queues">queue board</a> shows the jobs
      themselves.
    </p>
    <h2>
      Items delivered per minute, last hour <span class="muted">(${count(thisHour)} in all)</span>
    </h2>
    <div class="card">
      ${chart('throughput', {
        x: throughput.map((p) => p.at),
        ys: [throughput.map((p) => p.delivered)],
        series: [{ label: 'delivered', color: '#1d5fd1', fill: 'rgba(29,95,209,.12)' }],
        yLabel: 'items / min',
      })}
    </div>`;
}

export function overviewBody(
  o: Overview,
  platforms: readonly PlatformSection[] = [],
  picker: SafeHtml | '' = '',
): SafeHtml {
  // From sync runs only (a replay never stands for its pipeline); dead letters and a blocked
  // delivery keep their own place in the notice whatever the last run says.
  const failing = o.pipelines.filter(
    (c) =>
      ['partial', 'failed', 'guard_stopped'].includes(c.lastRun?.status ?? '') ||
      c.deadLetters > 0 ||
      c.active?.status === 'blocked',
  );
  return html`<h1>Overview</h1>
    ${picker}
    <p class="muted">
      As of ${new Date(o.now).toISOString().replace('T', ' ').slice(0, 19)} UTC · refreshes every
      few seconds.
    </p>
    ${contractNotice(o)}
    ${
      failing.length > 0
        ? html`<div class="notice warn">
            ${failing.length} pipeline(s) need a look:
            ${failing.map(
              (c, i) =>
                html`${i ? ', ' : ''}<a href="/pipelines/${c.view.name}">${c.view.name}</a>
                  (${needsLook(c).join(', ')})`,
            )}
          </div>`
        : ''
    }
    ${pipelineSections(o.pipelines, o.now, platforms)} ${sharedSections(o)}
    <h2>Latest operator actions</h2>
    ${
      o.audit.length === 0
        ? html`<p class="muted">None yet.</p>`
        : html`<table>
              <tbody>
                ${o.audit.map(
                  (a) =>
                    html`<tr>
                      <td>${when(a.at, o.now)}</td>
                      <td>${a.actor}</td>
                      <td><code>${a.action}</code></td>
                      <td>${a.target}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
            <p><a href="/audit">The whole audit trail</a></p>`
    }`;
}

export function registerOverviewPage(app: FastifyInstance, ctx: ServeContext): void {
  app.get<{ Querystring: { platform?: string } }>(
    '/',
    pageRoute({ querystring: strings(['platform']) }),
    async (request, reply) => {
      const principal = request.principal!;
      const asked = request.query.platform || undefined;
      const filter = platformFilter(ctx.config, principal, asked);
      const visible = visiblePlatforms(ctx.config, principal);
      const shown = filter ? visible.filter((p) => filter.has(p)) : visible;
      // A section per platform once the installation has several (one for a filter of one).
      const sections =
        visible.length > 1 || ctx.config.platforms[visible[0] ?? ''] !== undefined
          ? shown.map((name) => ({ name, label: platformLabel(ctx.config, name) }))
          : [];
      return sendPage(
        reply,
        { title: 'Overview', section: 'overview', liveMs: LIVE_MS, charts: !filter },
        overviewBody(
          await readOverview(ctx, filter),
          sections,
          platformPicker('/', visible, asked),
        ),
      );
    },
  );
}
