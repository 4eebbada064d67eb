/** Credentials fixed by configuration: none, bearer token, API-key header, HTTP basic. */
import type { AuthConfig } from '../../config/index.js';
import type { AuthProvider } from './auth-provider.js';

type StaticAuthConfig = Exclude<AuthConfig, { type: 'oauth2' }>;

function credentialOf(config: StaticAuthConfig): {
  headers: Record<string, string>;
  raw: string[];
} {
  switch (config.type) {
    case 'none':
      return { headers: {}, raw: [] };
    case 'bearer':
      return { headers: { authorization: `Bearer ${config.token}` }, raw: [config.token] };
    case 'apiKey':
      return { headers: { [config.header.toLowerCase()]: config.key }, raw: [config.key] };
    case 'basic': {
      const encoded = Buffer.from(`${config.username}:${config.password}`).toString('base64');
      return { headers: { authorization: `Basic ${encoded}` }, raw: [config.password, encoded] };
    }
  }
}

export function createStaticAuth(config: StaticAuthConfig): AuthProvider {
  const { headers, raw } = credentialOf(config);
  const secrets = raw.filter((s) => s.length > 0);
  return {
    headers: () => headers,
    renew: () => false,
    secrets: () => secrets,
  };
}
