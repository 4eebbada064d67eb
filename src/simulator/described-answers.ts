/**
 * A described platform's answers in the description's own shapes (`--openapi`): a refusal
 * (`{error: {code, message, details}}` inside the simulator) rewritten as the described error
 * object (problem+json's `type`, `title`, `status`, `detail`, `errors[]`, or the description's own
 * names), and a batch's per-item results (`{results: [{externalId, status, error}]}`) under the
 * described result's names. What the binding's answers do not name, or an answer already in the
 * described shape (Ferry's own description), is left as it is.
 */
import { atDottedPath, setDottedPath } from '../base/index.js';
import type { AnswersConfig } from '../config/index.js';
import type { Binding } from '../interface/index.js';
import type { SimResponse } from './http-io.js';

interface SimError {
  code?: string;
  message?: string;
  details?: { in?: string; name?: string; instancePath?: string; message?: string }[];
}

interface SimResult {
  externalId: string | null;
  status: number;
  error?: { code?: string; message?: string };
}

const TITLES: Record<string, string> = {
  VALIDATION_FAILED: 'The request does not fit the description',
  REJECTED: "Rejected by the platform's rule",
  UNAUTHORIZED: 'Unauthorized',
  NOT_FOUND: 'Not found',
  PAYLOAD_TOO_LARGE: 'Too many items',
  RATE_LIMITED: 'Too many requests',
};

const leafOf = (path: string): string => path.split('.').pop()!;
const parentOf = (path: string): string => path.split('.').slice(0, -1).join('.');

function parsed(body: string): unknown {
  try {
    return body === '' ? undefined : (JSON.parse(body) as unknown);
  } catch {
    return undefined;
  }
}

/** One item error in the described shape: its pointer and the platform's words. */
function itemError(answers: AnswersConfig, pointer: string, message: string) {
  const words = leafOf(answers.words?.[0] ?? 'message');
  return { [answers.pointer ?? 'pointer']: pointer, [words]: message };
}

function pointerOf(d: NonNullable<SimError['details']>[number]): string {
  const at = d.instancePath ?? '';
  return d.in === 'body' || d.in === undefined ? at : `/${d.in}/${d.name ?? ''}${at}`;
}

function describedError(answers: AnswersConfig, status: number, error: SimError, key?: string) {
  const words = answers.words ?? [];
  const message = error.message ?? '';
  const out: Record<string, unknown> = {};
  const at = (name: string) => {
    const parent = parentOf(words[0]!);
    return parent ? `${parent}.${name}` : name;
  };
  const problem = answers.errorType?.includes('problem') === true;
  if (problem) setDottedPath(out, at('type'), 'about:blank');
  for (const path of words) {
    const title = leafOf(path) === 'title';
    setDottedPath(out, path, title ? (TITLES[error.code ?? ''] ?? message) : message);
  }
  setDottedPath(out, at(problem ? 'status' : 'code'), problem ? status : (error.code ?? 'ERROR'));
  if (answers.errors) {
    const items = (error.details ?? []).map((d) =>
      itemError(answers, pointerOf(d), d.message ?? ''),
    );
    if (items.length === 0 && key !== undefined) items.push(itemError(answers, key, message));
    setDottedPath(out, answers.errors, items);
  }
  return out;
}

function describedResult(answers: AnswersConfig, keyField: string, r: SimResult) {
  const ok = r.status >= 200 && r.status < 300;
  const out: Record<string, unknown> = { [answers.resultKey ?? keyField]: r.externalId };
  const outcome = answers.resultOk
    ? ok
      ? answers.resultOk[0]
      : (answers.resultNo ?? 'rejected')
    : r.status;
  setDottedPath(out, answers.resultStatus ?? 'status', outcome);
  if (r.error && answers.resultErrors) {
    const pointer = r.error.code === 'REJECTED' ? `/${keyField}` : '';
    setDottedPath(out, answers.resultErrors, [itemError(answers, pointer, r.error.message ?? '')]);
  }
  return out;
}

/** The answer as the binding's description writes it. */
export function inDescribedShape(binding: Binding, response: SimResponse): SimResponse {
  const answers = binding.answers;
  const body = parsed(response.body) as { error?: SimError; results?: SimResult[] } | undefined;
  if (!body || typeof body !== 'object') return response;
  const said = (path: string) => atDottedPath(body, path) !== undefined;
  const own = answers.words?.every(said) === true && (!answers.errors || said(answers.errors));
  if (response.status >= 400 && body.error && answers.words && answers.words.length > 0 && !own) {
    // A refusal of one entity names it: the path parameter that holds its key, else its key field.
    const param = binding.operation.pathParams[0];
    const named = param === undefined ? `/${binding.keyField}` : `/path/${param}`;
    const key = body.error.code === 'REJECTED' ? named : undefined;
    const error = describedError(answers, response.status, body.error, key);
    const headers = {
      ...response.headers,
      'content-type': answers.errorType ?? 'application/json',
    };
    return { status: response.status, headers, body: JSON.stringify(error) };
  }
  const ownResults =
    answers.results === 'results' &&
    answers.resultKey === binding.keyField &&
    answers.resultStatus === 'status' &&
    (answers.resultErrors ?? 'error') === 'error';
  if (
    Array.isArray(body.results) &&
    answers.results !== undefined &&
    answers.resultKey &&
    !ownResults
  ) {
    const results = body.results.map((r) => describedResult(answers, binding.keyField, r));
    const out: unknown = answers.results === '' ? results : {};
    if (answers.results !== '')
      setDottedPath(out as Record<string, unknown>, answers.results, results);
    return { ...response, body: JSON.stringify(out) };
  }
  return response;
}
