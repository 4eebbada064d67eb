/**
 * `/dead-letters`: search the dead letters by pipeline, run, operation, key or platform (a token
 * scoped to platforms finds theirs only); replay or purge a
 * selection, or purge all the search found (operator); export what it found as CSV
 * (`/dead-letters/export.csv`).
 */
import type { FastifyInstance } from 'fastify';
import { firstFew } from '../../base/index.js';
import { deadLetterRow, deadLettersCsv, type DeadLetterRow } from '../../runs/index.js';
import {
  findDeadLetterPage,
  findDeadLetters,
  type DeadLetterSearch,
} from '../find-dead-letters.js';
import { platformFilter, platformOfPipeline, visiblePlatforms } from '../platform-scope.js';
import type { ServeContext } from '../serve-context.js';
import type { Principal } from '../tokens.js';
import { count, when } from './format.js';
import { html, type SafeHtml } from './html.js';
import { fileRoute, PAGE_SIZE, pageRoute, sendPage, strings } from './page-route.js';
import { platformSelect } from './platform-filter.js';

function query(search: DeadLetterSearch, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...search, ...extra })) if (v) params.set(k, v);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function deadLettersBody(
  page: { entries: DeadLetterRow[]; nextCursor?: string; total: number },
  search: DeadLetterSearch,
  principal: Principal,
  now: number,
  /** The platforms the filter offers (none: no selector). */
  platforms: readonly string[] = [],
): SafeHtml {
  const operator = principal.role === 'operator';
  const searched = Object.entries(search).filter(([, v]) => v) as Array<[string, string]>;
  return html`<h1>Dead letters <span class="muted">(${page.total} found)</span></h1>
    <form class="inline" method="get" action="/dead-letters">
      <input
        type="search"
        name="key"
        placeholder="Item key, e.g. 000123"
        value="${search.key ?? ''}"
      />
      <input type="text" name="pipeline" placeholder="Pipeline" value="${search.pipeline ?? ''}" />
      <input
        type="text"
        name="operation"
        placeholder="Operation, e.g. products.put"
        value="${search.operation ?? ''}"
      />
      <!-- Kept when the search is sent again (a run page links here with ?run=); empty it to drop. -->
      <input type="text" name="run" placeholder="Run id" value="${search.run ?? ''}" />
      ${platformSelect(platforms, search.platform)}
      <button type="submit">Search</button>
      <a class="button" href="/dead-letters/export.csv${query(search)}">Export CSV</a>
    </form>
    ${
      page.entries.length === 0
        ? html`<p class="muted">
            No dead letter${searched.length > 0 ? ' matches' : ''}: nothing is waiting for an
            operator.
          </p>`
        : html`<div data-action-scope data-keep>
            ${operator ? actionBar(page.total, searched) : ''}
            <div data-result></div>
            <table>
              <thead>
                <tr>
                  ${operator ? html`<th><input type="checkbox" data-select-all="input.pick" aria-label="Select all" /></th>` : ''}
                  <th>Dead letter</th>
                  <th>When</th>
                  <th>Pipeline</th>
                  ${platforms.length > 1 ? html`<th>Platform</th>` : ''}
                  <th>Operation</th>
                  <th>Keys</th>
                  <th>Answer</th>
                  <th>Error</th>
                  <th>Source</th>
                </tr>
              </thead>
              <tbody>
                ${page.entries.map(
                  (e) =>
                    html`<tr>
                      ${operator ? html`<td><input type="checkbox" class="pick" value="${e.id}" aria-label="Select ${e.id}" /></td>` : ''}
                      <td><a href="/dead-letters/${e.id}">${e.id}</a></td>
                      <td>${when(e.at, now)}</td>
                      <td><a href="/runs/${e.runId}">${e.pipeline}</a></td>
                      ${platforms.length > 1 ? html`<td>${platformOfPipeline(e.pipeline)}</td>` : ''}
                      <td><code>${e.operationId}</code></td>
                      <td class="mono" title="${e.keys.join(', ')}">${firstFew(e.keys)}</td>
                      <td>${e.status ?? html`<span class="muted">none</span>`}</td>
                      <td>
                        <code>${e.errorCode}</code>
                        <div>${e.message}</div>
                      </td>
                      <td class="mono path">${firstFew(e.source)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
    ${page.nextCursor ? html`<p><a class="button" href="/dead-letters${query(search, { cursor: page.nextCursor })}">More</a></p>` : ''}`;
}

/**
 * An operator's actions on the list: replay or purge the ticked rows, and purge all the search
 * found (offered for a search only: every dead letter of the installation is `ferry dlq purge
 * --all`). The purge of all sends the number the confirmation named: if another number matches
 * by then, nothing is purged (409).
 */
function actionBar(total: number, searched: Array<[string, string]>): SafeHtml {
  const which = searched.map(([field, value]) => `${field} ${value}`).join(', ');
  const all = { filter: Object.fromEntries(searched), expected: total };
  return html`<p class="bar">
      <button
        class="primary"
        data-post="/api/dead-letters/replay"
        data-ids-from="input.pick"
        data-confirm="Replay the {count} selected dead letter(s) now?"
        data-then="refresh"
      >
        Replay selected
      </button>
      <button
        data-post="/api/dead-letters/purge"
        data-ids-from="input.pick"
        data-confirm="Purge the {count} selected dead letter(s)? They are discarded unsent; the next run of their pipeline plans their items again."
        data-then="refresh"
      >
        Purge selected
      </button>
      ${
        searched.length > 0
          ? html`<button
              class="danger"
              data-post="/api/dead-letters/purge"
              data-body="${JSON.stringify(all)}"
              data-confirm="Purge all ${count(total)} dead letter(s) found (${which})? They are discarded unsent; the next run of their pipeline plans their items again."
              data-then="refresh"
            >
              Purge all ${count(total)} found
            </button>`
          : ''
      }
    </p>
    <p class="muted">
      Replay sends each again as it was (a failure becomes a dead letter again). Purge discards it
      unsent: the platform is left as it is, and the pipeline's next run plans the items
      again.${searched.length > 0 ? '' : ' Search (by pipeline, say) to purge all it finds.'}
    </p>`;
}

const SEARCH = ['pipeline', 'run', 'operation', 'key', 'platform'];

export function registerDeadLettersPage(app: FastifyInstance, ctx: ServeContext): void {
  app.get<{ Querystring: DeadLetterSearch & { cursor?: string } }>(
    '/dead-letters',
    pageRoute({ querystring: strings([...SEARCH, 'cursor']) }),
    async (request, reply) => {
      const search = searchOf(request.query);
      const principal = request.principal!;
      const platforms = platformFilter(ctx.config, principal, search.platform);
      const at = Number(/^[0-9]+$/.test(request.query.cursor ?? '') ? request.query.cursor : 0);
      const found = await findDeadLetterPage(ctx, search, platforms, at, PAGE_SIZE);
      const entries = found.entries.map(deadLetterRow);
      const next = at + entries.length < found.total ? String(at + entries.length) : undefined;
      return sendPage(
        reply,
        { title: 'Dead letters', section: 'dead-letters' },
        deadLettersBody(
          { entries, total: found.total, ...(next ? { nextCursor: next } : {}) },
          search,
          principal,
          Date.now(),
          visiblePlatforms(ctx.config, principal),
        ),
      );
    },
  );

  app.get<{ Querystring: DeadLetterSearch }>(
    '/dead-letters/export.csv',
    fileRoute({ querystring: strings(SEARCH) }),
    async (request, reply) => {
      const search = searchOf(request.query);
      const platforms = platformFilter(ctx.config, request.principal!, search.platform);
      return reply
        .header('content-disposition', 'attachment; filename="dead-letters.csv"')
        .type('text/csv; charset=utf-8')
        .send(deadLettersCsv(await findDeadLetters(ctx, search, platforms)));
    },
  );
}

function searchOf(query: DeadLetterSearch): DeadLetterSearch {
  return {
    pipeline: query.pipeline?.trim() || undefined,
    run: query.run?.trim() || undefined,
    operation: query.operation?.trim() || undefined,
    key: query.key?.trim() || undefined,
    platform: query.platform?.trim() || undefined,
  };
}
