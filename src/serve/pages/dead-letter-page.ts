/**
 * `/dead-letters/{id}`: one dead letter whole, with its payload to edit and replay, or to purge
 * (operator); once replayed or purged, what became of it and by whom (from the audit trail).
 */
import type { FastifyInstance } from 'fastify';
import { stringifyExact } from '../../base/index.js';
import { NotFoundError, type DeadLetter, lastAuditOf, type AuditEntry } from '../../runs/index.js';
import { visibleDeadLetter } from '../find-dead-letters.js';
import { platformOfPipeline } from '../platform-scope.js';
import type { ServeContext } from '../serve-context.js';
import type { Principal } from '../tokens.js';
import { badge, versionText, when } from './format.js';
import { html, type SafeHtml } from './html.js';
import { pageRoute, sendPage, strings } from './page-route.js';
import { platformLabel } from './platform-filter.js';

export function deadLetterBody(
  entry: DeadLetter,
  principal: Principal,
  now: number,
  /** Its platform, named with its base URL, where the installation has several. */
  platform?: SafeHtml,
): SafeHtml {
  const operator = principal.role === 'operator';
  const single = entry.items.length === 1;
  const payload = single ? stringifyExact(entry.items[0]!.payload, 2) : undefined;
  const base = `/api/dead-letters/${encodeURIComponent(entry.id)}`;
  return html`<p class="muted"><a href="/dead-letters">Dead letters</a></p>
    <h1>${entry.id} ${badge('dead', 'dead letter')}</h1>
    <div class="card">
      <dl class="kv">
        <dt>Pipeline, run</dt>
        <dd>${entry.pipeline}, <a href="/runs/${entry.runId}">${entry.runId}</a></dd>
        ${
          platform
            ? html`<dt>Platform</dt>
                <dd>${platform}</dd>`
            : ''
        }
        <dt>When</dt>
        <dd>${when(new Date(entry.at).toISOString(), now)} after ${entry.attempts} attempt(s)</dd>
        <dt>Operation</dt>
        <dd>
          <code>${entry.operationId}</code>
          <span class="mono">${entry.request.method} ${entry.request.path}</span>
        </dd>
        <dt>Error</dt>
        <dd><code>${entry.errorCode}</code> ${entry.message}</dd>
        <dt>Answer</dt>
        <dd>${entry.status ?? 'none (no answer)'}</dd>
        ${
          entry.error
            ? html`<dt>The platform said</dt>
                <dd>${entry.error}</dd>`
            : ''
        }
        ${
          entry.replayOf
            ? html`<dt>Replay of</dt>
                <dd><a href="/dead-letters/${entry.replayOf}">${entry.replayOf}</a></dd>`
            : ''
        }
      </dl>
    </div>
    ${
      entry.bodyExcerpt
        ? html`<h2>The platform's answer (excerpt)</h2>
            <pre>${entry.bodyExcerpt}</pre>`
        : ''
    }
    <h2>Items</h2>
    <table>
      <thead>
        <tr>
          <th>Key</th>
          <th>Source</th>
          <th>Version</th>
        </tr>
      </thead>
      <tbody>
        ${entry.items.map(
          (i) =>
            html`<tr>
              <td class="mono">
                <a href="/entities?pipeline=${entry.pipeline}&key=${encodeURIComponent(i.key)}"
                  >${i.key}</a
                >
              </td>
              <td class="mono path">${i.source ? `${i.source.file}:${i.source.line}` : '—'}</td>
              <td>${versionText(i.version)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    <h2>Payload</h2>
    <div class="card" data-action-scope data-keep>
      ${
        single
          ? html`<textarea id="payload" spellcheck="false" ${operator ? '' : 'readonly'} data-keep>
${payload}</textarea>`
          : html`<pre>
${stringifyExact(
                entry.items.map((i) => ({ key: i.key, payload: i.payload })),
                2,
              )}</pre>`
      }
      ${
        operator
          ? html`<p class="bar">
              ${
                single
                  ? html`<button
                      class="primary"
                      data-post="${base}/replay"
                      data-payload-from="payload"
                      data-confirm="Replay ${entry.id} with the payload as edited above?"
                      data-then="refresh"
                    >
                      Replay with this payload
                    </button>`
                  : ''
              }
              <button
                data-post="${base}/replay"
                data-confirm="Replay ${entry.id} as it was?"
                data-then="refresh"
              >
                Replay as it was
              </button>
              <button
                class="danger"
                data-post="${base}/purge"
                data-confirm="Purge dead letter ${entry.id} (1 dead letter, ${entry.items.length} item(s))? It is discarded unsent; the next run of ${entry.pipeline} plans its items again."
                data-then="refresh"
              >
                Purge
              </button>
            </p>`
          : html`<p class="muted">An operator can edit the payload and replay it, or purge it.</p>`
      }
      <div data-result></div>
    </div>`;
}

const DONE_WORDS: Record<string, string> = {
  'dead-letter.replay': 'replayed as it was',
  'dead-letter.replay-edited': 'replayed with an edited payload',
};

/** A dead letter no longer waiting (a reload after its replay): what became of it, and by whom. */
export function deadLetterGoneBody(id: string, done: AuditEntry, now: number): SafeHtml {
  if (done.action === 'dead-letter.purge') return purgedBody(id, done, now);
  const what = DONE_WORDS[done.action] ?? done.action.replace(/^dead-letter\./, '');
  return html`<p class="muted"><a href="/dead-letters">Dead letters</a></p>
    <h1>${id} ${badge('succeeded', 'no longer waiting')}</h1>
    <div class="notice ok">
      This dead letter was ${what} by ${done.actor} ${when(done.at, now)}; it is no longer in the
      list. A replay that failed again left a new dead letter: see the
      <a href="/dead-letters">dead letters</a> and the <a href="/runs">runs</a> (the replay is a run
      of its own).
    </div>`;
}

/** A purged dead letter: nothing was sent, so not painted green. */
function purgedBody(id: string, done: AuditEntry, now: number): SafeHtml {
  return html`<p class="muted"><a href="/dead-letters">Dead letters</a></p>
    <h1>${id} ${badge('purged')}</h1>
    <div class="notice warn">
      This dead letter was purged by ${done.actor} ${when(done.at, now)}: discarded unsent, it is no
      longer in the list. The platform was left as it was; the pipeline's next run plans its items
      again.
    </div>`;
}

export function registerDeadLetterPage(app: FastifyInstance, ctx: ServeContext): void {
  app.get<{ Params: { id: string } }>(
    '/dead-letters/:id',
    pageRoute({ params: strings(['id'], ['id']) }),
    async (request, reply) => {
      const principal = request.principal!;
      const entry = await visibleDeadLetter(ctx, principal, request.params.id);
      if (!entry) {
        // A replayed (or purged) dead letter is gone from the list: say what became of it (to a
        // token scoped to platforms, only when the audit entry names one of them).
        const done = await lastAuditOf(ctx.redis, ctx.keys, request.params.id);
        const scope = principal.platforms;
        if (!done || (scope && !scope.includes(done.platform ?? ''))) {
          throw new NotFoundError(
            'dead letter',
            request.params.id,
            'No dead letter of this id waits: it was replayed or purged from the command line ' +
              '(or with a search), or never existed. The dead-letter list shows what waits.',
          );
        }
        return sendPage(
          reply,
          { title: request.params.id, section: 'dead-letters' },
          deadLetterGoneBody(request.params.id, done, Date.now()),
        );
      }
      return sendPage(
        reply,
        { title: entry.id, section: 'dead-letters' },
        deadLetterBody(
          entry,
          principal,
          Date.now(),
          Object.keys(ctx.config.platforms).length > 0
            ? platformLabel(ctx.config, platformOfPipeline(entry.pipeline))
            : undefined,
        ),
      );
    },
  );
}
