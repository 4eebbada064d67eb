/** The login page: one field, the token; the browser keeps only a session cookie afterwards. */
import { html } from './html.js';
import { page } from './layout.js';

export function loginPage(next: string, message?: string): string {
  return page(
    { title: 'Log in' },
    html`<div class="login card">
      <h1>Ferry console</h1>
      <p class="muted">
        Log in with a console token (FERRY_VIEWER_TOKEN, FERRY_OPERATOR_TOKEN or one of
        serve.tokens). A viewer sees everything; an operator can also act.
      </p>
      ${message ? html`<div class="notice bad" role="alert">${message}</div>` : ''}
      <form method="post" action="/login">
        <label for="token">Token</label>
        <input
          id="token"
          name="token"
          type="password"
          autocomplete="current-password"
          autofocus
          required
        />
        <input type="hidden" name="next" value="${next}" />
        <button class="primary" type="submit">Log in</button>
      </form>
    </div>`,
  );
}
