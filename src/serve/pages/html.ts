/**
 * HTML built on the server with a tagged template that escapes every interpolated value, so a
 * key, a file name or an error message from an export can never become markup. Markup built by
 * another `html` template (or marked with `raw`) is inserted as it is.
 */

const SAFE = Symbol('safe-html');

export interface SafeHtml {
  readonly [SAFE]: true;
  readonly text: string;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Trusted markup (a constant of the console's own, never data). */
export function raw(text: string): SafeHtml {
  return { [SAFE]: true, text };
}

type Part = SafeHtml | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (Array.isArray(part)) return (part as readonly Part[]).map(render).join('');
  if (typeof part === 'object') return (part as SafeHtml).text;
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let text = strings[0]!;
  values.forEach((value, i) => {
    text += render(value) + strings[i + 1]!;
  });
  return raw(text);
}

/**
 * A JSON document for the page's script (`<script type="application/json">`): `<` is escaped so
 * that no value can close the script element.
 */
export function jsonData(id: string, value: unknown): SafeHtml {
  const text = JSON.stringify(value).replace(/</g, '\\u003c');
  return raw(`<script type="application/json" id="${escapeHtml(id)}">${text}</script>`);
}
