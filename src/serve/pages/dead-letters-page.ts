/**
 * `/dead-letters`: search the dead letters by pipeline, operation or key; replay a selection
 * (operator); export what the search found as CSV. `/dead-letters/{id}`: one dead letter whole,
 * with its payload to edit and replay.
 */
import type { DeadLetter, DeadLetterRow } from '../../runs/index.js';
import type { DeadLetterSearch } from '../find-dead-letters.js';
import type { AuditEntry } from '../audit.js';
import type { Principal } from '../tokens.js';
import { badge, when } from './format.js';
import { html, type SafeHtml } from './html.js';

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
): SafeHtml {
  const operator = principal.role === 'operator';
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
      <button type="submit">Search</button>
      <a class="button" href="/dead-letters/export.csv${query(search)}">Export CSV</a>
    </form>
    ${
      page.entries.length === 0
        ? html`<p class="muted">
            No dead
            letter${search.key || search.pipeline || search.operation || search.run ? ' matches' : ''}:
            nothing is waiting for an operator.
          </p>`
        : html`<div data-action-scope data-keep>
            ${
              operator
                ? html`<p class="bar">
                    <button
                      class="primary"
                      data-post="/api/dead-letters/replay"
                      data-ids-from="input.pick"
                      data-confirm="Replay the selected dead letters now?"
                      data-then="refresh"
                    >
                      Replay selected
                    </button>
                    <span class="muted"
                      >Each is sent again as it was; a failure becomes a new dead letter.</span
                    >
                  </p>`
                : ''
            }
            <div data-result></div>
            <table>
              <thead>
                <tr>
                  ${operator ? html`<th><input type="checkbox" data-select-all="input.pick" aria-label="Select all" /></th>` : ''}
                  <th>Dead letter</th>
                  <th>When</th>
                  <th>Pipeline</th>
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
                      <td><code>${e.operationId}</code></td>
                      <td class="mono">${e.keys.join(', ')}</td>
                      <td>${e.status ?? html`<span class="muted">none</span>`}</td>
                      <td>
                        <code>${e.errorCode}</code>
                        <div>${e.message}</div>
                      </td>
                      <td class="mono path">${e.source.join(', ')}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
    ${page.nextCursor ? html`<p><a class="button" href="/dead-letters${query(search, { cursor: page.nextCursor })}">More</a></p>` : ''}`;
}

export function deadLetterBody(entry: DeadLetter, principal: Principal, now: number): SafeHtml {
  const operator = principal.role === 'operator';
  const single = entry.items.length === 1;
  const payload = single ? JSON.stringify(entry.items[0]!.payload, null, 2) : undefined;
  const base = `/api/dead-letters/${encodeURIComponent(entry.id)}`;
  return html`<p class="muted"><a href="/dead-letters">Dead letters</a></p>
    <h1>${entry.id} ${badge('dead', 'dead letter')}</h1>
    <div class="card">
      <dl class="kv">
        <dt>Pipeline, run</dt>
        <dd>${entry.pipeline}, <a href="/runs/${entry.runId}">${entry.runId}</a></dd>
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
              <td>${i.version}</td>
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
${JSON.stringify(
                entry.items.map((i) => ({ key: i.key, payload: i.payload })),
                null,
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
            </p>`
          : html`<p class="muted">An operator can edit the payload and replay it.</p>`
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
