import type { AuthConfig } from '../../config/index.js';
import type { AuthProvider } from './auth-provider.js';
import { createOAuth2Auth, type OAuth2Deps } from './oauth2-auth.js';
import { createStaticAuth } from './static-auth.js';

/** The provider for `interface.auth`. */
export function createAuthProvider(config: AuthConfig, deps: OAuth2Deps): AuthProvider {
  return config.type === 'oauth2' ? createOAuth2Auth(config, deps) : createStaticAuth(config);
}
