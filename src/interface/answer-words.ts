/**
 * The platform's own words in its answers (docs/INTERFACE.md, Answers): a refusal's message
 * (`detail`, else `title`, else `message`, where the description says, else where problem+json and
 * common error objects put them) and its item errors with their pointers; a 207's per-item results,
 * under whatever names the description gives them. Dead letters carry what is read here.
 */
import type { AnswersConfig } from '../config/index.js';
import { atDottedPath } from '../base/index.js';

export interface ItemError {
  /** Where in the request (a JSON pointer, or the field the platform names); '' when unsaid. */
  pointer: string;
  message?: string;
}

export interface PlatformWords {
  /** The refusal's words, when it has some. */
  words?: string;
  errors: ItemError[];
}

const WORDS = ['detail', 'title', 'message', 'error_description', 'description', 'reason'];
const NESTED_WORDS = ['error.detail', 'error.title', 'error.message', 'error'];
const ERROR_LISTS = [
  'errors',
  'error.details',
  'details',
  'error.errors',
  'problems',
  'violations',
];
const POINTERS = ['pointer', 'instancePath', 'path', 'field', 'source.pointer', 'location', 'name'];

function firstText(value: unknown, paths: readonly string[]): string | undefined {
  for (const path of paths) {
    const found = atDottedPath(value, path);
    if (typeof found === 'string' && found.trim() !== '') return found;
  }
  return undefined;
}

/** The leaf names of the described word paths (`error.message` -> `message`): an item error's. */
const leaves = (paths: readonly string[]): string[] => paths.map((p) => p.split('.').pop()!);

function itemErrorOf(value: unknown, answers: AnswersConfig): ItemError | undefined {
  if (typeof value === 'string') return { pointer: '', message: value };
  if (!value || typeof value !== 'object') return undefined;
  const pointer = firstText(value, [...(answers.pointer ? [answers.pointer] : []), ...POINTERS]);
  const message = firstText(value, [...leaves(answers.words ?? []), ...WORDS, 'code']);
  return { pointer: pointer ?? '', ...(message ? { message } : {}) };
}

/** Item errors held at `value`: an array of them, or one object (a 207 result's `error`). */
function itemErrorsOf(value: unknown, answers: AnswersConfig): ItemError[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.map((v) => itemErrorOf(v, answers)).filter((e) => e !== undefined);
}

/** A refusal's words and item errors, read where the description says, else where they usually are. */
export function refusalWords(body: unknown, answers: AnswersConfig): PlatformWords {
  if (typeof body === 'string') return { words: body.slice(0, 500), errors: [] };
  const words = firstText(body, [...(answers.words ?? []), ...WORDS, ...NESTED_WORDS]);
  const paths = [...(answers.errors ? [answers.errors] : []), ...ERROR_LISTS];
  const list = paths.map((p) => atDottedPath(body, p)).find(Array.isArray);
  return { ...(words ? { words } : {}), errors: itemErrorsOf(list, answers) };
}

/** One item's result in a 207, in Ferry's words. */
export interface ItemResult {
  /** The platform applied it. */
  ok: boolean;
  /** The item's own HTTP status, when the result gives one. */
  status?: number;
  /** The result as the platform wrote it. */
  raw: unknown;
  errors: ItemError[];
}

const OK_WORDS = /^(ok|success|succeeded|applied|accepted|created|updated|deleted|done|stored)$/i;

function isOkOutcome(outcome: unknown, answers: AnswersConfig): boolean {
  if (typeof outcome === 'number') return outcome >= 200 && outcome < 300;
  if (typeof outcome === 'boolean') return outcome;
  if (typeof outcome !== 'string') return false;
  if (/^\d{3}$/.test(outcome)) return outcome.startsWith('2');
  return answers.resultOk ? answers.resultOk.includes(outcome) : OK_WORDS.test(outcome);
}

/**
 * The per-item results of an answer by the item's key (`{results: [{externalId, status, error}]}`
 * unless the description names them otherwise), or undefined when it has none.
 */
export function itemResults(
  body: unknown,
  answers: AnswersConfig,
  keyField: string,
): Map<string, ItemResult> | undefined {
  const results = atDottedPath(body, answers.results ?? 'results');
  if (!Array.isArray(results)) return undefined;
  const key = answers.resultKey ?? keyField;
  const outcome = answers.resultStatus ?? 'status';
  const errors = answers.resultErrors ?? 'error';
  const map = new Map<string, ItemResult>();
  for (const r of results) {
    const id = atDottedPath(r, key);
    if (typeof id !== 'string') continue;
    const value = atDottedPath(r, outcome);
    map.set(id, {
      ok: isOkOutcome(value, answers),
      ...(typeof value === 'number' ? { status: value } : {}),
      raw: r,
      errors: itemErrorsOf(atDottedPath(r, errors), answers),
    });
  }
  return map;
}
