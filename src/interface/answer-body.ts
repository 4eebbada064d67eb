/** Reading an answer's body, and the error context an answer that failed gives. */
import type { HttpErrorContext } from './errors.js';
import { scrubSecrets } from './scrub-secrets.js';
import type { HttpAnswer } from './transport.js';

/** The first characters of an answer kept in errors, dead letters and reports. */
export const BODY_EXCERPT_CHARS = 500;

/** Parsed JSON when the answer was JSON, else the text; null when empty. */
export function parseAnswerBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return null;
  const looksJson = contentType?.includes('json') || /^\s*[[{]/.test(text);
  if (!looksJson) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * What an error carries about a failed answer: status, headers, a body excerpt and the parsed body,
 * with any secret the answer echoed (a credential, say) scrubbed first.
 */
export function answerErrorContext(
  base: HttpErrorContext,
  answer: HttpAnswer,
  secrets: readonly string[],
): HttpErrorContext {
  const text = scrubSecrets(answer.text, secrets);
  const headers = Object.fromEntries(
    Object.entries(answer.headers).map(([name, value]) => [name, scrubSecrets(value, secrets)]),
  );
  return {
    ...base,
    status: answer.status,
    headers,
    bodyExcerpt: text.slice(0, BODY_EXCERPT_CHARS),
    body: parseAnswerBody(text, answer.headers['content-type']),
  };
}
