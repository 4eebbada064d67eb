/**
 * The query parameters of the read operations, parsed and described in one place: reads.ts
 * parses them, openapi.ts documents them. Every list read pages with `page` and `pageSize`;
 * orders also filter by id and time, Z-reports and revenue by date range. A parameter a read does
 * not take is refused (400), so a misspelt filter is never silently ignored.
 */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

export interface ReadParamDoc {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

const PAGING: ReadParamDoc[] = [
  {
    name: 'page',
    description: 'The page, from 1.',
    schema: { type: 'integer', minimum: 1, default: 1 },
  },
  {
    name: 'pageSize',
    description: 'Items per page.',
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
  },
];

const DATE_RANGE: ReadParamDoc[] = [
  {
    name: 'from',
    description: 'First day reported (inclusive), YYYY-MM-DD (UTC).',
    schema: { type: 'string', format: 'date' },
  },
  {
    name: 'to',
    description: 'Last day reported (inclusive), YYYY-MM-DD (UTC).',
    schema: { type: 'string', format: 'date' },
  },
];

/** Filters beyond paging, per read resource. */
const FILTERS: Record<string, ReadParamDoc[]> = {
  orders: [
    {
      name: 'sinceId',
      description:
        'Only orders with an id greater than this one (ids are decimal digits, zero-padded to ten; ' +
        '"42" and "0000000042" are the same id). The exact cursor for incremental reads.',
      schema: { type: 'string', pattern: '^\\d{1,15}$' },
    },
    {
      name: 'createdAfter',
      description:
        'Only orders created strictly after this time (ISO 8601 date-time, or a day meaning its ' +
        'UTC midnight). Several orders may share a createdAt: page by sinceId to resume exactly.',
      schema: { type: 'string', format: 'date-time' },
    },
    {
      name: 'createdBefore',
      description: 'Only orders created strictly before this time (as createdAfter).',
      schema: { type: 'string', format: 'date-time' },
    },
  ],
  zReports: DATE_RANGE,
  revenue: DATE_RANGE,
};

/** How each list read orders its items (the OpenAPI description says it too). */
export const ORDER_OF: Record<string, string> = {
  orders:
    'Sorted by id ascending, which is also createdAt order; new orders only ever append at the end.',
  zReports: 'Closed UTC days only, by date then storeExternalId; a closed day never changes.',
  revenue: 'Closed UTC days only, by date; a closed day never changes.',
};
const INSERTION_ORDER =
  'In the order the items were first written; an update keeps the place, a new item appends.';

export function readParamDocs(resource: string): ReadParamDoc[] {
  return [...PAGING, ...(FILTERS[resource] ?? [])];
}

export function orderOfItems(resource: string): string {
  return ORDER_OF[resource] ?? INSERTION_ORDER;
}

export interface ReadQuery {
  page: number;
  pageSize: number;
  offset: number;
  /** Orders: the sequence number of sinceId. */
  sinceSequence?: number;
  createdAfterMs?: number;
  createdBeforeMs?: number;
  /** Z-reports and revenue: YYYY-MM-DD, inclusive. */
  from?: string;
  to?: string;
}

function integer(raw: string, min: number, max: number): number | undefined {
  const value = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  return value >= min && value <= max ? value : undefined;
}

function day(raw: string): string | undefined {
  const m = DAY.exec(raw);
  const ms = m ? Date.parse(`${raw}T00:00:00Z`) : NaN;
  // Round trip: 2024-02-30 is not a day.
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === raw ? raw : undefined;
}

function time(raw: string): number | undefined {
  if (day(raw) !== undefined) return Date.parse(`${raw}T00:00:00Z`);
  if (!DATE_TIME.test(raw)) return undefined;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? undefined : ms;
}

interface Parser {
  field: keyof ReadQuery;
  parse(raw: string): number | string | undefined;
  expected: string;
}

const DATE_TIME_EXPECTED =
  'an ISO 8601 date-time such as 2024-01-31T12:00:00Z, or a day YYYY-MM-DD';
const PARSERS: Record<string, Parser> = {
  page: {
    field: 'page',
    parse: (raw) => integer(raw, 1, Number.MAX_SAFE_INTEGER),
    expected: 'an integer >= 1',
  },
  pageSize: {
    field: 'pageSize',
    parse: (raw) => integer(raw, 1, MAX_PAGE_SIZE),
    expected: `an integer from 1 to ${MAX_PAGE_SIZE}`,
  },
  sinceId: {
    field: 'sinceSequence',
    parse: (raw) => integer(raw, 0, 999_999_999_999_999),
    expected: 'an order id (decimal digits)',
  },
  createdAfter: { field: 'createdAfterMs', parse: time, expected: DATE_TIME_EXPECTED },
  createdBefore: { field: 'createdBeforeMs', parse: time, expected: DATE_TIME_EXPECTED },
  from: { field: 'from', parse: day, expected: 'a day YYYY-MM-DD' },
  to: { field: 'to', parse: day, expected: 'a day YYYY-MM-DD' },
};

/** The parsed query, or the message of a 400 naming the parameter and what was expected. */
export function parseReadQuery(
  resource: string,
  query: URLSearchParams,
): { ok: true; query: ReadQuery } | { ok: false; message: string } {
  const allowed = readParamDocs(resource).map((p) => p.name);
  const parsed: ReadQuery = { page: 1, pageSize: DEFAULT_PAGE_SIZE, offset: 0 };
  for (const [name, raw] of query) {
    const parser = allowed.includes(name) ? PARSERS[name] : undefined;
    if (!parser) {
      const message = `unknown query parameter "${name}"; this read takes ${allowed.join(', ')}`;
      return { ok: false, message };
    }
    const value = parser.parse(raw);
    if (value === undefined) {
      return { ok: false, message: `${name} must be ${parser.expected}, got "${raw}"` };
    }
    Object.assign(parsed, { [parser.field]: value });
  }
  parsed.offset = (parsed.page - 1) * parsed.pageSize;
  return { ok: true, query: parsed };
}
