/**
 * Does `interface.auth` fit the security scheme the description names for the operations Ferry
 * uses? Bearer vs API key (where: header, query or cookie, and its name) vs basic vs OAuth2 client
 * credentials (and its token URL, both resolved against the base URL before they are compared).
 * Messages name schemes, places and URLs (the one expected among them), never a credential.
 */
import type { AuthConfig } from '../../config/index.js';
import { resolveTokenUrl } from '../auth/oauth2-auth.js';
import { apiKeyPlace } from '../auth/static-auth.js';
import type { DescribedOperation } from './described-operations.js';
import { isSchemaObject } from './json-schema.js';
import type { OpenApiDoc } from './load-description.js';

export interface AuthProblem {
  operationId?: string;
  message: string;
}

/** A token URL as Ferry would call it, or the text as it is when it is no URL at all. */
function resolved(tokenUrl: string, baseUrl: string): string {
  try {
    return resolveTokenUrl(tokenUrl, baseUrl).href;
  } catch {
    return tokenUrl;
  }
}

/** A scheme in words, for messages: the token URL the description's resolves to. */
function schemeText(scheme: Record<string, unknown>, baseUrl: string): string {
  if (scheme.type === 'http') return `HTTP ${String(scheme.scheme ?? '').toLowerCase()}`;
  if (scheme.type === 'apiKey')
    return `an API key in ${String(scheme.in)} "${String(scheme.name)}"`;
  if (scheme.type === 'oauth2') {
    const url = tokenUrlOf(scheme);
    return url === undefined
      ? 'OAuth2'
      : `OAuth2 client credentials with token URL ${resolved(url, baseUrl)} (tokenUrl "${url}")`;
  }
  return String(scheme.type);
}

function tokenUrlOf(scheme: Record<string, unknown>): string | undefined {
  const flows = isSchemaObject(scheme.flows) ? scheme.flows : {};
  const cc = isSchemaObject(flows.clientCredentials) ? flows.clientCredentials : undefined;
  return typeof cc?.tokenUrl === 'string' ? cc.tokenUrl : undefined;
}

function fits(
  auth: AuthConfig,
  scheme: Record<string, unknown>,
  baseUrl: string,
): string | undefined {
  const http = scheme.type === 'http' ? String(scheme.scheme ?? '').toLowerCase() : undefined;
  switch (auth.type) {
    case 'bearer':
      return http === 'bearer' ? undefined : 'bearer';
    case 'basic':
      return http === 'basic' ? undefined : 'basic';
    case 'apiKey': {
      const place = apiKeyPlace(auth);
      const have = `an API key in ${place.in} "${place.name}"`;
      if (scheme.type !== 'apiKey' || scheme.in !== place.in) return have;
      // Header names are case-insensitive; query and cookie names are not.
      const same =
        place.in === 'header'
          ? String(scheme.name).toLowerCase() === place.name.toLowerCase()
          : String(scheme.name) === place.name;
      return same ? undefined : have;
    }
    case 'oauth2': {
      const have = `OAuth2 with token URL ${resolved(auth.tokenUrl, baseUrl)}`;
      if (scheme.type !== 'oauth2') return have;
      const url = tokenUrlOf(scheme);
      if (!url) return `${have} (the scheme has no clientCredentials flow)`;
      return resolved(url, baseUrl) === resolved(auth.tokenUrl, baseUrl) ? undefined : have;
    }
    default:
      return 'no credential';
  }
}

/**
 * Problems of `auth` against the operations' security (each: a list of alternatives); `baseUrl`:
 * the interface's, which relative token URLs are resolved against.
 */
export function checkAuth(
  doc: OpenApiDoc,
  auth: AuthConfig,
  operations: ReadonlyMap<string, DescribedOperation>,
  baseUrl: string,
): AuthProblem[] {
  const components = isSchemaObject(doc.components) ? doc.components : {};
  const schemes = isSchemaObject(components.securitySchemes) ? components.securitySchemes : {};
  const problems: AuthProblem[] = [];
  const said = new Set<string>();
  for (const [operationId, op] of operations) {
    // An empty requirement ({}) or no security at all: the operation is open.
    if (op.security.length === 0 || op.security.some((names) => names.length === 0)) continue;
    const alternatives = op.security.map((names) =>
      names.map((n) => (isSchemaObject(schemes[n]) ? schemes[n] : undefined)),
    );
    const ok = alternatives.some(
      (all) =>
        all.length === 1 && all[0] !== undefined && fits(auth, all[0], baseUrl) === undefined,
    );
    if (ok) continue;
    const wanted = alternatives
      .map((all) =>
        all.map((s) => (s ? schemeText(s, baseUrl) : 'an undeclared scheme')).join(' and '),
      )
      .join(', or ');
    const have = isSchemaObject(alternatives[0]?.[0])
      ? fits(auth, alternatives[0][0], baseUrl)
      : auth.type;
    const message = `interface.auth is ${have ?? auth.type}; the description asks for ${wanted}`;
    if (said.has(message)) continue;
    said.add(message);
    problems.push({ operationId, message });
  }
  return problems;
}
