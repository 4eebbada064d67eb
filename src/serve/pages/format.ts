/** Small pieces the pages share: a status badge, a time as "3 min ago", a count. */
import { html, type SafeHtml } from './html.js';

export function badge(status: string, label = status.replace('_', ' ')): SafeHtml {
  return html`<span class="badge ${status}">${label}</span>`;
}

/** "12 s ago", "5 min ago", "3 h ago", "2 d ago", or "in 4 h" for a time to come. */
export function ago(at: number, now: number): string {
  const seconds = Math.round((now - at) / 1000);
  const span = Math.abs(seconds);
  const text =
    span < 60
      ? `${span} s`
      : span < 3600
        ? `${Math.floor(span / 60)} min`
        : span < 86_400
          ? `${Math.floor(span / 3600)} h`
          : `${Math.floor(span / 86_400)} d`;
  return seconds >= 0 ? `${text} ago` : `in ${text}`;
}

/** A time with its age, the exact time in the tooltip. */
export function when(iso: string | undefined, now: number): SafeHtml {
  if (!iso) return html`<span class="muted">—</span>`;
  return html`<span title="${iso}">${ago(Date.parse(iso), now)}</span>`;
}

/**
 * A state version. Versions are Redis's clock in ms when their run planned (a run's items all carry
 * its one version: runs/scripts/next-version.ts), so one reads as that time, in UTC to the ms (two
 * runs a second apart differ), the number itself in the tooltip; a smaller one is shown as it is.
 */
export function versionText(version: number): SafeHtml {
  if (version < CLOCK_VERSIONS_FROM) return html`<span>${version}</span>`;
  const at = new Date(version).toISOString().replace('T', ' ').replace('Z', ' UTC');
  return html`<span class="version" title="version ${version}">${at}</span>`;
}

/** 2001-09-09 in ms: any version above it is a clock reading. */
const CLOCK_VERSIONS_FROM = 1e12;

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * A long text (a guard's message) shown by its first sentence (or up to its first colon), whole
 * and wrapped (never cut inside it), with "…" when more follows; the whole text is in the tooltip
 * and on the run page. `toColon: false` for a text whose colon only opens its first sentence.
 */
export function brief(text: string, toColon = true): SafeHtml {
  const first = (toColon ? /^.*?[.:](\s|$)/s : /^.*?\.(\s|$)/s).exec(text)?.[0]?.trim() ?? text;
  const more = first.length < text.trim().length;
  return html`<span class="reason" title="${text}">${first}${more ? ' …' : ''}</span>`;
}
