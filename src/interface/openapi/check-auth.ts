/**
 * Does `interface.auth` fit the security scheme the description names for the operations Ferry
 * uses? Bearer vs API key (and its header name) vs basic vs OAuth2 client credentials (and its
 * token URL). Messages name schemes and headers, never a credential.
 */
import type { AuthConfig } from '../../config/index.js';
import type { DescribedOperation } from './described-operations.js';
import { isSchemaObject } from './json-schema.js';
import type { OpenApiDoc } from './load-description.js';

export interface AuthProblem {
  operationId?: string;
  message: string;
}

/** A scheme in words, for messages. */
function schemeText(scheme: Record<string, unknown>): string {
  if (scheme.type === 'http') return `HTTP ${String(scheme.scheme ?? '').toLowerCase()}`;
  if (scheme.type === 'apiKey')
    return `an API key in ${String(scheme.in)} "${String(scheme.name)}"`;
  if (scheme.type === 'oauth2') return 'OAuth2';
  return String(scheme.type);
}

function tokenUrlOf(scheme: Record<string, unknown>): string | undefined {
  const flows = isSchemaObject(scheme.flows) ? scheme.flows : {};
  const cc = isSchemaObject(flows.clientCredentials) ? flows.clientCredentials : undefined;
  return typeof cc?.tokenUrl === 'string' ? cc.tokenUrl : undefined;
}

function fits(auth: AuthConfig, scheme: Record<string, unknown>): string | undefined {
  const http = scheme.type === 'http' ? String(scheme.scheme ?? '').toLowerCase() : undefined;
  switch (auth.type) {
    case 'bearer':
      return http === 'bearer' ? undefined : 'bearer';
    case 'basic':
      return http === 'basic' ? undefined : 'basic';
    case 'apiKey':
      if (scheme.type !== 'apiKey' || scheme.in !== 'header')
        return `an API key in header "${auth.header}"`;
      return String(scheme.name).toLowerCase() === auth.header.toLowerCase()
        ? undefined
        : `an API key in header "${auth.header}"`;
    case 'oauth2': {
      if (scheme.type !== 'oauth2') return 'OAuth2 client credentials';
      const url = tokenUrlOf(scheme);
      if (!url) return 'OAuth2 client credentials (the scheme has no clientCredentials flow)';
      return url === auth.tokenUrl ? undefined : `OAuth2 with token URL ${auth.tokenUrl}`;
    }
    default:
      return 'no credential';
  }
}

/** Problems of `auth` against the operations' security (each: a list of alternatives). */
export function checkAuth(
  doc: OpenApiDoc,
  auth: AuthConfig,
  operations: ReadonlyMap<string, DescribedOperation>,
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
      (all) => all.length === 1 && all[0] !== undefined && fits(auth, all[0]) === undefined,
    );
    if (ok) continue;
    const wanted = alternatives
      .map((all) => all.map((s) => (s ? schemeText(s) : 'an undeclared scheme')).join(' and '))
      .join(', or ');
    const have = isSchemaObject(alternatives[0]?.[0]) ? fits(auth, alternatives[0][0]) : auth.type;
    const message = `interface.auth is ${have ?? auth.type}; the description asks for ${wanted}`;
    if (said.has(message)) continue;
    said.add(message);
    problems.push({ operationId, message });
  }
  return problems;
}
