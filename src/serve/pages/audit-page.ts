/**
 * `/audit`: every operator action taken through the console, newest first, with the platform it
 * concerns; `?platform=` one platform's (a token scoped to platforms sees theirs only).
 */
import type { FastifyInstance } from 'fastify';
import type { AuditEntry } from '../../runs/index.js';
import { platformFilter, visiblePlatforms } from '../platform-scope.js';
import { readAuditOf } from '../read-audit.js';
import type { ServeContext } from '../serve-context.js';
import { when } from './format.js';
import { html, type SafeHtml } from './html.js';
import { pageRoute, sendPage, strings } from './page-route.js';
import { platformPicker } from './platform-filter.js';

/** The newest actions the page lists. */
const AUDIT_SHOWN = 500;

export function auditBody(
  entries: AuditEntry[],
  now: number,
  picker: SafeHtml | '' = '',
  /** The installation has several platforms: a column names each entry's. */
  platforms = false,
): SafeHtml {
  return html`<h1>Audit trail</h1>
    ${picker}
    <p class="muted">
      Who did what through the console, newest first (the last ${entries.length}).
    </p>
    ${
      entries.length === 0
        ? html`<p class="muted">No action yet.</p>`
        : html`<table>
            <thead>
              <tr>
                <th>When</th>
                <th>Who</th>
                <th>Action</th>
                <th>On</th>
                ${platforms ? html`<th>Platform</th>` : ''}
              </tr>
            </thead>
            <tbody>
              ${entries.map(
                (a) =>
                  html`<tr>
                    <td>${when(a.at, now)} <span class="muted">${a.at}</span></td>
                    <td>${a.actor}</td>
                    <td><code>${a.action}</code></td>
                    <td class="mono">${a.target}</td>
                    ${platforms ? html`<td>${a.platform ?? html`<span class="muted">—</span>`}</td>` : ''}
                  </tr>`,
              )}
            </tbody>
          </table>`
    }`;
}

export function registerAuditPage(app: FastifyInstance, ctx: ServeContext): void {
  app.get<{ Querystring: { platform?: string } }>(
    '/audit',
    pageRoute({ querystring: strings(['platform']) }),
    async (request, reply) => {
      const principal = request.principal!;
      const asked = request.query.platform || undefined;
      const filter = platformFilter(ctx.config, principal, asked);
      const visible = visiblePlatforms(ctx.config, principal);
      return sendPage(
        reply,
        { title: 'Audit trail', section: 'audit' },
        auditBody(
          await readAuditOf(ctx, filter, AUDIT_SHOWN),
          Date.now(),
          platformPicker('/audit', visible, asked),
          Object.keys(ctx.config.platforms).length > 0,
        ),
      );
    },
  );
}
