/**
 * What a description says of an operation's answers (docs/INTERFACE.md, Answers and reads): where
 * its refusals put their words and item errors (problem+json's `detail`/`title`/`errors[]`, or the
 * description's own error object), where a 207 puts its per-item results whatever their property
 * names, and how a read's pages are followed. Only what the description states is returned.
 */
import type { AnswersConfig, PagingConfig } from '../../config/index.js';
import type { DescribedOperation, DescribedResponse, Schema } from './described-operations.js';
import { isSchemaObject, objectShape, typesOf } from './json-schema.js';

const WORDS = ['detail', 'title', 'message', 'error_description', 'description', 'reason', 'text'];
const POINTERS = ['pointer', 'path', 'instancePath', 'field', 'location', 'property', 'param'];
const KEYS = ['externalId', 'ref', 'reference', 'key', 'id', 'sku'];
const OUTCOMES = ['status', 'outcome', 'result', 'state', 'ok', 'success'];
const OK_WORDS = /^(ok|success|succeeded|applied|accepted|created|updated|deleted|done|stored)$/i;
const ITEM_ARRAYS = ['items', 'data', 'results', 'records', 'content', 'entries'];

const isArraySchema = (s: Schema): boolean =>
  typesOf(s).includes('array') || isSchemaObject(s.items);
const isStringSchema = (s: Schema): boolean =>
  typesOf(s).includes('string') || Array.isArray(s.enum);
const propsOf = (s: Schema | undefined): Record<string, Schema> =>
  s ? objectShape(s).properties : {};
const itemSchemaOf = (s: Schema): Schema | undefined =>
  isSchemaObject(s.items) ? s.items : undefined;

/** The first of `names` (case-insensitive) among the properties that `fits`. */
function pick(
  props: Record<string, Schema>,
  names: readonly string[],
  fits: (s: Schema) => boolean,
): string | undefined {
  const lower = new Map(Object.keys(props).map((k) => [k.toLowerCase(), k]));
  for (const name of names) {
    const found = lower.get(name.toLowerCase());
    if (found && fits(props[found]!)) return found;
  }
  return undefined;
}

/** The word properties of an error object, in the order Ferry reads them. */
function wordsOf(props: Record<string, Schema>): string[] {
  return WORDS.map((w) => pick(props, [w], isStringSchema)).filter((w) => w !== undefined);
}

/** An error object's array of item errors, and their pointer property. */
function itemErrorsOf(
  props: Record<string, Schema>,
): { errors: string; pointer?: string } | undefined {
  for (const [name, schema] of Object.entries(props)) {
    const item = isArraySchema(schema) ? itemSchemaOf(schema) : undefined;
    const inner = propsOf(item);
    if (Object.keys(inner).length === 0) continue;
    const pointer = pick(inner, POINTERS, isStringSchema);
    return { errors: name, ...(pointer ? { pointer } : {}) };
  }
  return undefined;
}

/** The refusal an operation describes: 422, 400, 4XX, then default. */
function refusalOf(op: DescribedOperation): DescribedResponse | undefined {
  for (const status of ['422', '400', '4XX', '4xx', 'default']) {
    const answer = op.responses[status];
    if (answer?.schema || answer?.mediaType) return answer;
  }
  return undefined;
}

function errorAnswers(op: DescribedOperation): AnswersConfig {
  const refusal = refusalOf(op);
  if (!refusal?.schema) return {};
  const out: AnswersConfig = {};
  if (refusal.mediaType && refusal.mediaType !== 'application/json') {
    out.errorType = refusal.mediaType;
  }
  let props = propsOf(refusal.schema);
  let prefix = '';
  // An error object wrapped in one property (`{error: {code, message}}`).
  if (wordsOf(props).length === 0) {
    const wrapper = Object.entries(props).find(([, s]) => wordsOf(propsOf(s)).length > 0);
    if (!wrapper) return out;
    prefix = `${wrapper[0]}.`;
    props = propsOf(wrapper[1]);
  }
  out.words = wordsOf(props).map((w) => prefix + w);
  const items = itemErrorsOf(props);
  if (items) {
    out.errors = prefix + items.errors;
    if (items.pointer) out.pointer = items.pointer;
  }
  return out;
}

/** The array of results in a 207's schema: the answer itself, or its one array property. */
function resultsOf(schema: Schema): { path: string; item: Schema } | undefined {
  if (isArraySchema(schema)) {
    const item = itemSchemaOf(schema);
    return item ? { path: '', item } : undefined;
  }
  const arrays = Object.entries(propsOf(schema)).filter(([, s]) => isArraySchema(s));
  if (arrays.length !== 1) return undefined;
  const item = itemSchemaOf(arrays[0]![1]);
  return item ? { path: arrays[0]![0], item } : undefined;
}

function resultAnswers(op: DescribedOperation, keyField: string): AnswersConfig {
  const schema = op.responses['207']?.schema;
  const results = schema ? resultsOf(schema) : undefined;
  if (!results) return {};
  const props = propsOf(results.item);
  const outcome = pick(props, OUTCOMES, (s) => !isArraySchema(s));
  const key = pick(props, [keyField, ...KEYS], (s) => isStringSchema(s) && !Array.isArray(s.enum));
  if (!key || !outcome) return {};
  const out: AnswersConfig = { results: results.path, resultKey: key, resultStatus: outcome };
  const values = props[outcome]!.enum;
  if (Array.isArray(values)) {
    const words = values.filter((v): v is string => typeof v === 'string');
    out.resultOk = words.filter((v) => OK_WORDS.test(v));
    const no = words.find((v) => !OK_WORDS.test(v));
    if (no !== undefined) out.resultNo = no;
  }
  const errors = Object.keys(props).find(
    (name) =>
      name !== key && name !== outcome && /error|problem|issue|violation|reason/i.test(name),
  );
  if (errors) out.resultErrors = errors;
  return out;
}

/** Where an operation's refusals and 207 results put their words; undefined when it says nothing. */
export function describedAnswers(
  op: DescribedOperation,
  keyField: string,
): AnswersConfig | undefined {
  const out = { ...errorAnswers(op), ...resultAnswers(op, keyField) };
  return Object.keys(out).length > 0 ? out : undefined;
}

const PAGE_PARAMS = ['page', 'pageNumber', 'page_number', 'pageNo', 'pageIndex'];
const SIZE_PARAMS = ['pageSize', 'page_size', 'limit', 'perPage', 'per_page', 'size', 'maxResults'];
const CURSOR_PARAMS = [
  'cursor',
  'after',
  'pageToken',
  'page_token',
  'nextToken',
  'continuationToken',
  'starting_after',
  'startingAfter',
];
const NEXT_PROPS =
  /^(next|nextCursor|next_cursor|nextPageToken|next_page_token|nextToken|nextLink|next_link|nextUrl|next_url|cursor)$/i;

/** The next page's property, at the top or one object down (`meta.nextCursor`, `links.next`). */
function nextOf(props: Record<string, Schema>): string | undefined {
  const direct = Object.keys(props).find((k) => NEXT_PROPS.test(k) && isStringSchema(props[k]!));
  if (direct) return direct;
  for (const [name, schema] of Object.entries(props)) {
    if (isArraySchema(schema)) continue;
    const inner = propsOf(schema);
    const found = Object.keys(inner).find((k) => NEXT_PROPS.test(k) && isStringSchema(inner[k]!));
    if (found) return `${name}.${found}`;
  }
  return undefined;
}

/** A read's items property and paging as described; undefined when it states none. */
export function describedPaging(op: DescribedOperation): PagingConfig | undefined {
  const query = Object.fromEntries(
    op.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema ?? {}]),
  );
  const out: PagingConfig = {};
  const answer = op.responses['200'];
  const schema = answer?.schema;
  if (schema) {
    if (isArraySchema(schema)) out.items = '';
    else {
      const props = propsOf(schema);
      const arrays = Object.keys(props).filter((k) => isArraySchema(props[k]!));
      const items =
        arrays.length === 1 ? arrays[0] : pick(props, ITEM_ARRAYS, (s) => isArraySchema(s));
      if (items) out.items = items;
      const next = nextOf(props);
      if (next) out.next = next;
    }
  }
  if (answer?.headers.includes('link')) out.link = true;
  const page = pick(query, PAGE_PARAMS, () => true);
  const size = pick(query, SIZE_PARAMS, () => true);
  const cursor = pick(query, CURSOR_PARAMS, () => true);
  if (page) out.page = page;
  if (cursor) out.cursor = cursor;
  if (size) {
    out.size = size;
    const max = query[size]!.maximum;
    if (typeof max === 'number' && max > 0) out.maxSize = max;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
