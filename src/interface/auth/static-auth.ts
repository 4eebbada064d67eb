/**
 * Credentials fixed by configuration: none, bearer token, API key (in a header, a query parameter
 * or a cookie), HTTP basic.
 */
import type { AuthConfig } from '../../config/index.js';
import type { AuthProvider } from './auth-provider.js';

type StaticAuthConfig = Exclude<AuthConfig, { type: 'oauth2' }>;
type ApiKeyConfig = Extract<AuthConfig, { type: 'apiKey' }>;

export const DEFAULT_API_KEY_HEADER = 'X-Api-Key';

/** Where `interface.auth` puts its API key: a header (by default X-Api-Key), query or cookie. */
export function apiKeyPlace(config: ApiKeyConfig): {
  in: 'header' | 'query' | 'cookie';
  name: string;
} {
  if (config.query !== undefined) return { in: 'query', name: config.query };
  if (config.cookie !== undefined) return { in: 'cookie', name: config.cookie };
  return { in: 'header', name: config.header ?? DEFAULT_API_KEY_HEADER };
}

function credentialOf(config: StaticAuthConfig): {
  headers: Record<string, string>;
  query?: Record<string, string>;
  raw: string[];
} {
  switch (config.type) {
    case 'none':
      return { headers: {}, raw: [] };
    case 'bearer':
      return { headers: { authorization: `Bearer ${config.token}` }, raw: [config.token] };
    case 'apiKey': {
      const place = apiKeyPlace(config);
      const raw = [config.key, encodeURIComponent(config.key)];
      if (place.in === 'query') return { headers: {}, query: { [place.name]: config.key }, raw };
      if (place.in === 'cookie') {
        const cookie = `${place.name}=${encodeURIComponent(config.key)}`;
        return { headers: { cookie }, raw };
      }
      return { headers: { [place.name.toLowerCase()]: config.key }, raw };
    }
    case 'basic': {
      const encoded = Buffer.from(`${config.username}:${config.password}`).toString('base64');
      return { headers: { authorization: `Basic ${encoded}` }, raw: [config.password, encoded] };
    }
  }
}

export function createStaticAuth(config: StaticAuthConfig): AuthProvider {
  const { headers, query = {}, raw } = credentialOf(config);
  const secrets = [...new Set(raw.filter((s) => s.length > 0))];
  return {
    headers: () => headers,
    query,
    renew: () => false,
    secrets: () => secrets,
  };
}
