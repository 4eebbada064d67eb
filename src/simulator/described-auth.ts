/**
 * The security a description asks of an operation (`--openapi`): its requirements are
 * alternatives, each a set of schemes that must all be met. Every scheme is met by the simulator's
 * one token (`--token`): HTTP bearer, OAuth2 and OpenID Connect as `Authorization: Bearer <token>`,
 * HTTP basic as any user with the token for password, an API key in its header, query parameter
 * or cookie. OAuth2 is also met by a token its token endpoint issued with every scope the
 * requirement names (`issuedScopes`). A message names what is asked, never what was sent.
 */
import type { IncomingMessage } from 'node:http';
import { isSchemaObject, type DescribedOperation, type Schema } from '../interface/index.js';
import { hasBearer, same } from './auth.js';

/** Whether a request meets the operation's security; `asked` says what it asks, in words. */
export interface SecurityCheck {
  open: boolean;
  asked: string;
  /** The query parameters that carry a credential it takes (an API key in the query). */
  queryParams: string[];
  met(req: IncomingMessage, url: URL, credentials: SimCredentials): boolean;
}

/** What the simulator accepts: its token, and the tokens its token endpoint issued. */
export interface SimCredentials {
  token: string;
  /** The scopes of an issued token; undefined for a token it did not issue. */
  issuedScopes(token: string): ReadonlySet<string> | undefined;
}

function bearerOf(req: IncomingMessage): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
}

/** OAuth2: the simulator's own token, or an issued one with every scope asked. */
function oauthMet(req: IncomingMessage, credentials: SimCredentials, scopes: string[]): boolean {
  if (hasBearer(req, credentials.token)) return true;
  const given = bearerOf(req);
  const granted = given === undefined ? undefined : credentials.issuedScopes(given);
  return granted !== undefined && scopes.every((s) => granted.has(s));
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function basicPassword(req: IncomingMessage): string | undefined {
  const m = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

function schemeMet(
  scheme: Schema,
  scopes: string[],
  req: IncomingMessage,
  url: URL,
  credentials: SimCredentials,
): boolean {
  const { token } = credentials;
  const name = String(scheme.name ?? '');
  switch (scheme.type) {
    case 'http': {
      const kind = String(scheme.scheme ?? '').toLowerCase();
      if (kind === 'bearer') return hasBearer(req, token);
      if (kind === 'basic') return same(basicPassword(req) ?? '', token);
      return false;
    }
    case 'oauth2':
      return oauthMet(req, credentials, scopes);
    case 'openIdConnect':
      return hasBearer(req, token);
    case 'apiKey': {
      const given =
        scheme.in === 'header'
          ? req.headers[name.toLowerCase()]
          : scheme.in === 'query'
            ? url.searchParams.get(name)
            : scheme.in === 'cookie'
              ? cookie(req, name)
              : undefined;
      return typeof given === 'string' && same(given, token);
    }
    default:
      return false;
  }
}

function schemeWords(scheme: Schema | undefined): string {
  if (!scheme) return 'an undeclared scheme';
  if (scheme.type === 'http') {
    const kind = String(scheme.scheme ?? '').toLowerCase();
    return kind === 'bearer' ? 'Authorization: Bearer <token>' : `HTTP ${kind}`;
  }
  if (scheme.type === 'apiKey')
    return `an API key in ${String(scheme.in)} "${String(scheme.name)}"`;
  return `${String(scheme.type)} (Authorization: Bearer <token>)`;
}

export function securityCheck(doc: Record<string, unknown>, op: DescribedOperation): SecurityCheck {
  const components = isSchemaObject(doc.components) ? doc.components : {};
  const schemes = isSchemaObject(components.securitySchemes) ? components.securitySchemes : {};
  // An empty requirement ({}) or none at all: the operation is open.
  if (op.security.length === 0 || op.security.some((names) => names.length === 0)) {
    return { open: true, asked: 'nothing', queryParams: [], met: () => true };
  }
  const alternatives = op.security.map((names) =>
    names.map((n) => (isSchemaObject(schemes[n]) ? schemes[n] : undefined)),
  );
  const words = (scheme: Schema | undefined, i: number) => {
    const scopes = op.scopes[i] ?? [];
    const text = schemeWords(scheme);
    return scheme?.type === 'oauth2' && scopes.length > 0
      ? `${text} with the scopes ${scopes.join(' ')}`
      : text;
  };
  const queryKeys = alternatives
    .flat()
    .filter((s) => s?.type === 'apiKey' && s.in === 'query')
    .map((s) => String(s?.name));
  return {
    open: false,
    queryParams: [...new Set(queryKeys)],
    asked: alternatives.map((all, i) => all.map((s) => words(s, i)).join(' and ')).join(', or '),
    met: (req, url, credentials) =>
      alternatives.some((all, i) =>
        all.every(
          (scheme) =>
            scheme !== undefined && schemeMet(scheme, op.scopes[i] ?? [], req, url, credentials),
        ),
      ),
  };
}
