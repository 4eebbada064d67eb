/**
 * The console's bearer tokens (serve.tokens, FERRY_VIEWER_TOKEN, FERRY_OPERATOR_TOKEN) and who a
 * presented token is. Tokens are compared as SHA-256 digests in constant time, against every
 * configured token (no early exit), so neither a token's length nor its position shows in timing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FerryConfig } from '../config/index.js';

export type Role = 'viewer' | 'operator';

/** Who made a request: a token's name and role, and the platforms it is scoped to. */
export interface Principal {
  name: string;
  role: Role;
  /** The only platforms it sees and acts on (serve.tokens[].platforms); absent: every one. */
  platforms?: readonly string[];
}

/** The principal a configured token stands for. */
export function principalOf(token: FerryConfig['serve']['tokens'][number]): Principal {
  return {
    name: token.name,
    role: token.role,
    ...(token.platforms ? { platforms: token.platforms } : {}),
  };
}

/** The same name, role and platforms (a session against the token it was opened with). */
export function samePrincipal(a: Principal, b: Principal): boolean {
  return (
    a.name === b.name &&
    a.role === b.role &&
    (a.platforms ?? []).join(',') === (b.platforms ?? []).join(',')
  );
}

const digest = (token: string): Buffer => createHash('sha256').update(token).digest();

export type TokenMatcher = (presented: string) => Principal | undefined;

export function tokenMatcher(tokens: FerryConfig['serve']['tokens']): TokenMatcher {
  const known = tokens.map((t) => ({ principal: principalOf(t), digest: digest(t.token) }));
  return (presented) => {
    const given = digest(presented);
    let found: Principal | undefined;
    for (const t of known) {
      if (timingSafeEqual(given, t.digest) && !found) found = t.principal;
    }
    return found;
  };
}

/** What a role may do: an operator everything a viewer may, and the writes. */
export function allows(role: Role, needed: Role): boolean {
  return needed === 'viewer' || role === 'operator';
}
