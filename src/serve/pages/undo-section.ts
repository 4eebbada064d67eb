/**
 * The undo offer on a finished run's page (operators): what the dry run of `ferry undo` found
 * (items per operation, prices restored, entities skipped and why) and the button that starts
 * the undo as a run.
 */
import {
  restoredPricesText,
  skippedGroups,
  skippedGroupText,
  type UndoResult,
} from '../../orchestrate/index.js';
import { count } from './format.js';
import { html, type SafeHtml } from './html.js';

export function undoSection(preview: UndoResult): SafeHtml {
  const ops = Object.entries(preview.operations);
  const items = ops.reduce((n, [, c]) => n + c.items, 0);
  const parts = ops.map(([id, c]) => `${count(c.items)} ${id}`);
  // Prices riding in products' items are no items of their own: counted apart.
  const prices = restoredPricesText(preview.prices);
  if (prices) parts.push(`prices restored: ${prices}`);
  const summary = parts.join(', ');
  return html`<div class="card" data-action-scope data-undo>
    <h2>Undo</h2>
    <p>
      Undoing this run would send ${summary || 'nothing'}: the payloads Ferry delivered before it,
      deletes of what it created, and what it deleted created again.
      ${preview.skipped.length > 0 ? html`${count(preview.skipped.length)} entities would be skipped:` : ''}
    </p>
    ${
      preview.skipped.length > 0
        ? html`<ul>
            ${skippedGroups(preview.skipped).map((g) => html`<li>${skippedGroupText(g)}</li>`)}
          </ul>`
        : ''
    }
    ${
      items > 0
        ? html`<p class="bar">
            <button
              class="danger"
              data-post="/api/runs/${preview.runId}/undo"
              data-then="run"
              data-confirm="Undo run ${preview.runId} now, sending ${summary}? The undo is a run of its own."
            >
              Undo this run (${count(items)} items)
            </button>
          </p>`
        : ''
    }
  </div>`;
}
