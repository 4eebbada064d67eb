/**
 * `interface.auth` against the description's security (src/interface/openapi/check-auth.ts): token
 * URLs compared as Ferry would call them, API keys by place and name, open operations skipped, and
 * a mismatch naming the value expected.
 */
import { describe, expect, it } from 'vitest';
import type { AuthConfig } from '../../src/config/schema.js';
import { checkAuth } from '../../src/interface/openapi/check-auth.js';
import { describedOperations } from '../../src/interface/openapi/described-operations.js';
import { matchCatalog } from '../../src/interface/openapi/match-catalog.js';

const BASE = 'https://platform.example';

function problems(
  schemes: Record<string, unknown>,
  auth: AuthConfig,
  signup?: { security: unknown },
) {
  const doc = {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    security: [{ Platform: [] }],
    paths: signup
      ? { '/api/partner/signup': { post: { ...signup, responses: {} } } }
      : { '/external/api/categories': { put: { responses: {} } } },
    components: { securitySchemes: schemes },
  };
  const match = matchCatalog(describedOperations(doc));
  return checkAuth(doc, auth, match.matched, BASE).map((p) => p.message);
}

const oauth = (tokenUrl: string) => ({
  Platform: { type: 'oauth2', flows: { clientCredentials: { tokenUrl, scopes: {} } } },
});
const client = (tokenUrl: string): AuthConfig => ({
  type: 'oauth2',
  tokenUrl,
  clientId: 'c',
  clientSecret: 'secret-1',
  clientAuth: 'basic',
});

describe('checkAuth', () => {
  it('a relative tokenUrl in the description and the absolute one in the config fit', () => {
    expect(problems(oauth('/oauth/token'), client(`${BASE}/oauth/token`))).toEqual([]);
    expect(problems(oauth(`${BASE}/oauth/token`), client('oauth/token'))).toEqual([]);
  });

  it('another token URL is a mismatch naming the one expected, resolved', () => {
    expect(problems(oauth('/oauth/token'), client('/auth/token'))).toEqual([
      `interface.auth is OAuth2 with token URL ${BASE}/auth/token; the description asks for ` +
        `OAuth2 client credentials with token URL ${BASE}/oauth/token (tokenUrl "/oauth/token")`,
    ]);
  });

  it('an API key: its place and name must be the described ones', () => {
    const query = { Platform: { type: 'apiKey', in: 'query', name: 'api_key' } };
    expect(problems(query, { type: 'apiKey', query: 'api_key', key: 'k' })).toEqual([]);
    expect(problems(query, { type: 'apiKey', key: 'k' })).toEqual([
      'interface.auth is an API key in header "X-Api-Key"; the description asks for an API key in query "api_key"',
    ]);
    const cookie = { Platform: { type: 'apiKey', in: 'cookie', name: 'sid' } };
    expect(problems(cookie, { type: 'apiKey', cookie: 'sid', key: 'k' })).toEqual([]);
  });

  it('an operation with security: [] asks nothing; with its own requirement it asks', () => {
    const bearer: AuthConfig = { type: 'bearer', token: 't' };
    expect(problems(oauth('/oauth/token'), bearer, { security: [] })).toEqual([]);
    expect(problems(oauth('/oauth/token'), bearer, { security: [{ Platform: [] }] })).toHaveLength(
      1,
    );
  });
});
