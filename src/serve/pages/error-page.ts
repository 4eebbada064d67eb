/** Pages for a refused or failed request, in the console's frame. */
import { html } from './html.js';
import { page } from './layout.js';
import type { Principal } from '../tokens.js';

export function forbiddenPage(principal: Principal, message: string): string {
  return messagePage('Not allowed', message, principal);
}

export function messagePage(title: string, message: string, principal?: Principal): string {
  return page(
    { title, ...(principal ? { principal } : {}) },
    html`<h1>${title}</h1>
      <div class="notice bad">${message}</div>
      <p><a href="/">Back to the overview</a></p>`,
  );
}
