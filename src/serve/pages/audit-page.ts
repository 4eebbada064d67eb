/** `/audit`: every operator action taken through the console, newest first. */
import type { FastifyInstance } from 'fastify';
import { readAudit, type AuditEntry } from '../../runs/index.js';
import type { ServeContext } from '../serve-context.js';
import { when } from './format.js';
import { html, type SafeHtml } from './html.js';
import { pageRoute, sendPage } from './page-route.js';

/** The newest actions the page lists. */
const AUDIT_SHOWN = 500;

export function auditBody(entries: AuditEntry[], now: number): SafeHtml {
  return html`<h1>Audit trail</h1>
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
                  </tr>`,
              )}
            </tbody>
          </table>`
    }`;
}

export function registerAuditPage(app: FastifyInstance, ctx: ServeContext): void {
  app.get('/audit', pageRoute(), async (_request, reply) =>
    sendPage(
      reply,
      { title: 'Audit trail', section: 'audit' },
      auditBody(await readAudit(ctx.redis, ctx.keys, AUDIT_SHOWN), Date.now()),
    ),
  );
}
