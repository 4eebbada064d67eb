/**
 * A read's pages as the binding's paging states them (`--openapi`): the described page-size, page
 * and cursor parameters taken for the simulator's own `pageSize`, `page` and offset; the answer's
 * items where the description puts them, with a next cursor or URL in the described property
 * and a `Link: <...>; rel="next"` header where described. Ferry's assumed paging keeps
 * `{items, page, pageSize, total}`.
 */
import { setDottedPath } from '../base/index.js';
import type { PagingConfig } from '../config/index.js';
import { jsonResponse, type SimResponse } from './http-io.js';
import { readParamDocs, type ReadQuery } from './read-params.js';

const encodeCursor = (offset: number): string => Buffer.from(`o:${offset}`).toString('base64url');

function decodeCursor(text: string): number | undefined {
  const m = /^o:(\d{1,15})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : undefined;
}

/**
 * The query in the simulator's own names, and a cursor's offset; parameters the description
 * declares but the simulator does not play (a sort, a locale) are let by, and those it does not
 * declare are refused naming the declared ones (a platform would not take them either).
 */
export function ownQuery(
  resource: string,
  paging: PagingConfig,
  params: URLSearchParams,
  declared: ReadonlySet<string> | undefined,
): { params: URLSearchParams; offset?: number } | { message: string } {
  const known = new Set(readParamDocs(resource).map((p) => p.name));
  const own = new URLSearchParams();
  let offset: number | undefined;
  for (const [name, value] of params) {
    if (name === paging.size) own.set('pageSize', value);
    else if (name === paging.page) own.set('page', value);
    else if (name === paging.cursor) {
      offset = decodeCursor(value);
      if (offset === undefined)
        return { message: `${name} "${value}" is not a cursor this read gave` };
    } else if (declared && !declared.has(name)) {
      const takes = [...declared].join(', ') || 'no parameters';
      return { message: `unknown query parameter "${name}"; this read takes ${takes}` };
    } else if (!known.has(name) && declared?.has(name)) continue;
    else own.append(name, value);
  }
  return { params: own, ...(offset !== undefined ? { offset } : {}) };
}

interface Paged {
  paging: PagingConfig;
  url: URL;
  query: ReadQuery;
  items: unknown[];
  total: number;
}

/** The next page's path and query: the cursor (or page number) moved on. */
function nextUrl(p: Paged, end: number): string {
  const next = new URL(p.url);
  if (p.paging.cursor) next.searchParams.set(p.paging.cursor, encodeCursor(end));
  else if (p.paging.page) next.searchParams.set(p.paging.page, String(p.query.page + 1));
  return `${next.pathname}${next.search}`;
}

export function pagedAnswer(p: Paged): SimResponse {
  const { paging, query, items, total } = p;
  if (!paging.next && !paging.link && (paging.items ?? 'items') === 'items') {
    return jsonResponse(200, { items, page: query.page, pageSize: query.pageSize, total });
  }
  const end = query.offset + items.length;
  const more = end < total;
  const body: unknown = paging.items === '' ? items : {};
  if (paging.items !== '')
    setDottedPath(body as Record<string, unknown>, paging.items ?? 'items', items);
  if (paging.next && paging.items !== '') {
    // A property named for a link holds the URL; else a cursor, when there is a cursor parameter.
    const asUrl = /link|url|href/i.test(paging.next) || !paging.cursor;
    const next = more ? (asUrl ? nextUrl(p, end) : encodeCursor(end)) : null;
    setDottedPath(body as Record<string, unknown>, paging.next, next);
  }
  const headers = paging.link && more ? { link: `<${nextUrl(p, end)}>; rel="next"` } : undefined;
  return jsonResponse(200, body, headers);
}
