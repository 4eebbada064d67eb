/** What makes two writes "the same request": method, path, query and the canonical JSON body. */
import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so that key order does not make two equal bodies differ. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestFingerprint(
  method: string,
  pathname: string,
  query: URLSearchParams,
  body: unknown,
  rawBody: string,
): string {
  const hash = createHash('sha256');
  hash.update(
    `${method} ${pathname}?${[...query]
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join('&')}\n`,
  );
  // A body that is not JSON is compared byte for byte.
  hash.update(body === undefined ? rawBody : canonicalJson(body));
  return hash.digest('base64url');
}
