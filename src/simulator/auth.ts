/** The bearer-token check, and the optional OAuth2 client-credentials token endpoint. */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { jsonResponse, type SimResponse } from './http-io.js';

export const OAUTH_TOKEN_PATH = '/oauth/token';

/** Compares two secrets in constant time (for their length). */
export function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function hasBearer(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? '';
  const m = /^Bearer\s+(.+)$/i.exec(header);
  return m !== null && same(m[1]!.trim(), token);
}

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  expiresIn?: number;
}

/** Client credentials from the form body, or from HTTP Basic auth (RFC 6749, 2.3.1). */
function credentials(req: IncomingMessage, form: URLSearchParams) {
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return {
      id: decodeURIComponent(decoded.slice(0, colon)),
      secret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  }
  return { id: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '' };
}

/** A token for the scopes asked; undefined when one of them is not the platform's (invalid_scope). */
export type ScopedGrant = (scopes: string[]) => { token: string; scope: string } | undefined;

/**
 * POST /oauth/token (or a description's tokenUrl): answers in the RFC 6749 shapes, which OAuth
 * clients expect. `token`: the one token it issues, or a grant per set of scopes.
 */
export function issueToken(
  req: IncomingMessage,
  rawBody: string,
  client: OAuthClient,
  token: string | ScopedGrant,
): SimResponse {
  const noStore = { 'cache-control': 'no-store' };
  const form = new URLSearchParams(rawBody);
  if (form.get('grant_type') !== 'client_credentials') {
    return jsonResponse(400, { error: 'unsupported_grant_type' }, noStore);
  }
  let given;
  try {
    given = credentials(req, form);
  } catch {
    return jsonResponse(401, { error: 'invalid_client' }, noStore);
  }
  if (!same(given.id, client.clientId) || !same(given.secret, client.clientSecret)) {
    return jsonResponse(401, { error: 'invalid_client' }, noStore);
  }
  const expires_in = client.expiresIn ?? 3600;
  if (typeof token === 'string') {
    return jsonResponse(200, { access_token: token, token_type: 'Bearer', expires_in }, noStore);
  }
  const asked = (form.get('scope') ?? '').split(' ').filter((s) => s !== '');
  const granted = token(asked);
  if (!granted) return jsonResponse(400, { error: 'invalid_scope' }, noStore);
  return jsonResponse(
    200,
    { access_token: granted.token, token_type: 'Bearer', expires_in, scope: granted.scope },
    noStore,
  );
}
