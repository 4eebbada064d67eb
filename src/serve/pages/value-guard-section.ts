/**
 * A run the value guards stopped, on its page: each guard that tripped with its counts, the
 * samples (old value, what Ferry last delivered, and the new one), each key linked to its trace,
 * and for an operator the button that sends exactly this plan once.
 */
import type { GuardView } from '../../pipeline/index.js';
import type { AuditEntry, RunReport } from '../../runs/index.js';
import type { Principal } from '../tokens.js';
import { count, when } from './format.js';
import { html, type SafeHtml } from './html.js';

function shown(value: unknown): string {
  return value === undefined ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value);
}

const TITLES: Record<GuardView['guard'], string> = {
  changedShare: 'Values changed',
  valueChange: 'Values moved too far',
  emptied: 'Fields emptied',
  rows: 'Rows against the last run',
};

/** Every configured guard with its measure, tripped or not: what the approver weighs. */
function guardSummary(guards: readonly GuardView[]): SafeHtml {
  return html`<table data-guard-list>
    <thead>
      <tr>
        <th>Guard</th>
        <th>Measured</th>
        <th>Verdict</th>
      </tr>
    </thead>
    <tbody>
      ${guards.map(
        (r) =>
          html`<tr data-guard="${r.guard}" data-tripped="${String(r.tripped)}">
            <td>${TITLES[r.guard]}</td>
            <td>${r.reason}</td>
            <td>
              ${r.tripped ? html`<span class="badge failed">stops the run</span>` : 'within the limit'}
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function guardTable(pipeline: string, r: GuardView): SafeHtml {
  return html`<h3>${TITLES[r.guard]}: ${r.reason}</h3>
    <table>
      <thead>
        <tr>
          <th>Key</th>
          <th>Field</th>
          <th>Delivered</th>
          <th>Tonight</th>
        </tr>
      </thead>
      <tbody>
        ${r.samples.map(
          (s) =>
            html`<tr>
              <td>
                <a
                  class="mono"
                  href="/entities?pipeline=${pipeline}&key=${encodeURIComponent(s.key)}"
                  >${s.key}</a
                >
                <span class="muted">${s.resource}</span>
              </td>
              <td class="mono">${s.field}</td>
              <td class="mono num">${shown(s.old)}</td>
              <td class="mono num">${shown(s.new)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${r.count > r.samples.length ? html`<p class="muted">${count(r.samples.length)} of ${count(r.count)} shown.</p>` : ''}`;
}

const REFUSED: Record<string, string> = {
  FERRY_FOUR_EYES: 'they started the run, and with four eyes another operator must allow it',
  FERRY_GUARD_ALLOW: 'the plan was not the stopped one, or was allowed already',
};

/** Allows refused, as the audit trail has them: who, when, why. */
function refusalList(refusals: readonly AuditEntry[], now: number): SafeHtml | string {
  if (refusals.length === 0) return '';
  return html`<ul data-refusals>
    ${refusals.map(
      (e) =>
        html`<li>
          Allow refused for ${e.actor} ${when(e.at, now)}:
          ${REFUSED[e.reason ?? ''] ?? e.reason ?? 'refused'}.
        </li>`,
    )}
  </ul>`;
}

export function valueGuardSection(
  report: RunReport,
  principal: Principal,
  refusals: readonly AuditEntry[] = [],
  now = Date.now(),
): SafeHtml {
  const tripped = report.guards!.filter((r) => r.tripped && r.samples.length > 0);
  const allowed = report.guardAllowed;
  return html`<div class="notice bad" data-action-scope data-guards>
    <p>
      <b>Stopped by the value guards before sending anything.</b> ${count(report.rows)} rows were
      read. Compare tonight's values with what Ferry delivered; if the export is right, allow this
      very plan once; if it is broken, fix it and run again.
    </p>
    ${guardSummary(report.guards!)} ${tripped.map((r) => guardTable(report.pipeline, r))}
    ${refusalList(refusals, now)}
    ${
      allowed
        ? html`<p>
            Allowed once by ${allowed.by}:
            <a href="/runs/${allowed.runId}">run ${allowed.runId}</a>.
          </p>`
        : principal.role === 'operator'
          ? html`<p class="bar">
              <button
                class="danger"
                data-post="/api/runs/${report.runId}/allow-guard"
                data-then="run"
                data-confirm="Run ${report.pipeline} again now and send exactly this plan? If the export or state changed, it is refused."
              >
                Allow this plan once and run again
              </button>
            </p>`
          : html`<p>An operator can allow this plan once from this page.</p>`
    }
    <div data-result></div>
  </div>`;
}
