/**
 * The security a description asks of an operation (`--openapi`): its requirements are
 * alternatives, each a set of schemes that must all be met. Every scheme is met by the simulator's
 * one token (`--token`): HTTP bearer, OAuth2 and OpenID Connect as `Authorization: Bearer <token>`,
 * HTTP basic as any user with the token for password, an API key in its header, query parameter
 * or cookie. A message names what is asked, never what was sent.
 */
import type { IncomingMessage } from 'node:http';
import { isSchemaObject, type DescribedOperation, type Schema } from '../interface/index.js';
import { hasBearer, same } from './auth.js';

/** Whether a request meets the operation's security; `asked` says what it asks, in words. */
export interface SecurityCheck {
  open: boolean;
  asked: string;
  met(req: IncomingMessage, url: URL, token: string): boolean;
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

function schemeMet(scheme: Schema, req: IncomingMessage, url: URL, token: string): boolean {
  const name = String(scheme.name ?? '');
  switch (scheme.type) {
    case 'http': {
      const kind = String(scheme.scheme ?? '').toLowerCase();
      if (kind === 'bearer') return hasBearer(req, token);
      if (kind === 'basic') return same(basicPassword(req) ?? '', token);
      return false;
    }
    case 'oauth2':
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
    return { open: true, asked: 'nothing', met: () => true };
  }
  const alternatives = op.security.map((names) =>
    names.map((n) => (isSchemaObject(schemes[n]) ? schemes[n] : undefined)),
  );
  return {
    open: false,
    asked: alternatives.map((all) => all.map(schemeWords).join(' and ')).join(', or '),
    met: (req, url, token) =>
      alternatives.some((all) =>
        all.every((scheme) => scheme !== undefined && schemeMet(scheme, req, url, token)),
      ),
  };
}
