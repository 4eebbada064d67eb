/** What makes two writes "the same request": method, path, query and the canonical JSON body. */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../base/index.js';

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
