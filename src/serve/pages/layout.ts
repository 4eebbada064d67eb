/** The frame of every console page: the navigation, who is logged in, and the page's body. */
import { html, type SafeHtml } from './html.js';
import type { Principal } from '../tokens.js';

export interface PageFrame {
  title: string;
  /** The navigation entry to mark as the current one. */
  section?: 'overview' | 'runs' | 'dead-letters' | 'entities' | 'queues' | 'audit';
  principal?: Principal;
  /** Present for a browser session: the page's writes send it back. */
  csrf?: string;
  /** Milliseconds between live refreshes of <main>; none for a page that does not change. */
  liveMs?: number;
  /** The page draws charts (loads uPlot). */
  charts?: boolean;
}

const NAV: Array<[NonNullable<PageFrame['section']>, string, string]> = [
  ['overview', '/', 'Overview'],
  ['runs', '/runs', 'Runs'],
  ['dead-letters', '/dead-letters', 'Dead letters'],
  ['entities', '/entities', 'Entity trace'],
  ['queues', '/queues', 'Queues'],
  ['audit', '/audit', 'Audit'],
];

/** `alice (operator)`; a token scoped to platforms names them: `nora (operator, north)`. */
function signedIn(who: Principal): string {
  return `${who.name} (${[who.role, ...(who.platforms ?? [])].join(', ')})`;
}

export function page(frame: PageFrame, body: SafeHtml): string {
  const who = frame.principal;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${frame.title} · Ferry</title>
        ${frame.csrf ? html`<meta name="csrf-token" content="${frame.csrf}" />` : ''}
        <link rel="stylesheet" href="/assets/console.css" />
        ${frame.charts ? html`<link rel="stylesheet" href="/assets/uplot.css" />` : ''}
      </head>
      <body>
        <header class="top">
          <span class="brand">Ferry</span>
          ${
            who
              ? html`<nav>
                    ${NAV.filter(
                      // The queue board is every platform's: not for a token scoped to some.
                      ([key]) => key !== 'queues' || !who.platforms,
                    ).map(
                      ([key, href, label]) =>
                        html`<a href="${href}" class="${key === frame.section ? 'here' : ''}"
                          >${label}</a
                        >`,
                    )}
                  </nav>
                  <span class="who"
                    >${signedIn(who)}
                    ${
                      frame.csrf
                        ? html`<button data-post="/logout" data-then="/login">Log out</button>`
                        : ''
                    }</span
                  >`
              : ''
          }
        </header>
        <div class="flash" data-flash role="status"></div>
        <main ${frame.liveMs ? html`data-live="${frame.liveMs}"` : ''}>${body}</main>
        ${frame.charts ? html`<script src="/assets/uplot.js"></script>` : ''}
        <script src="/assets/console.js"></script>
      </body>
    </html> `.text;
}
