/**
 * OAuth2 client credentials (RFC 6749 section 4.4): a token from `tokenUrl` (a relative one resolved
 * against the base URL), per set of scopes an operation names (else `scope`), cached until shortly
 * before `expires_in`, fetched once for all concurrent callers, and renewed after a 401.
 */
import type { AuthConfig } from '../../config/index.js';
import { answerErrorContext, parseAnswerBody } from '../answer-body.js';
import { classifyAnswer } from '../classify-response.js';
import { AuthError, type HttpErrorContext } from '../errors.js';
import type { Transport } from '../transport.js';
import type { AuthProvider } from './auth-provider.js';

type OAuth2Config = Extract<AuthConfig, { type: 'oauth2' }>;

interface CachedToken {
  header: string;
  /** Epoch ms after which the token is fetched again; Infinity when the server gave no expiry. */
  renewAt: number;
}

/** Tokens issued earlier are still scrubbed from answers for a while. */
const REMEMBERED_TOKENS = 4;
/** Renew this long before expiry (or a tenth of the lifetime when shorter), not at the last moment. */
const EXPIRY_MARGIN_MS = 30_000;

function renewAt(expiresIn: unknown, now: number): number {
  if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
    return Infinity;
  }
  const lifetime = expiresIn * 1_000;
  return now + lifetime - Math.min(EXPIRY_MARGIN_MS, lifetime / 10);
}

export interface OAuth2Deps {
  transport: Transport;
  retryAfterCapMs: number;
  /** The interface's base URL: what a relative tokenUrl is resolved against. */
  baseUrl: string;
}

/**
 * A token URL as Ferry calls it: an absolute one as it is, a relative one (`/oauth/token`,
 * `oauth/token`) against the base URL, as a directory (`https://h/shop` + `oauth/token` ->
 * `https://h/shop/oauth/token`), as OpenAPI resolves URLs against its server.
 */
export function resolveTokenUrl(tokenUrl: string, baseUrl: string): URL {
  return new URL(tokenUrl, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
}

/** One token per set of scopes: its cache and the fetch under way. */
interface TokenSlot {
  cached?: CachedToken;
  pending?: Promise<CachedToken>;
}

export function createOAuth2Auth(config: OAuth2Config, deps: OAuth2Deps): AuthProvider {
  const url = resolveTokenUrl(config.tokenUrl, deps.baseUrl);
  const basic = Buffer.from(
    `${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`,
  ).toString('base64');
  const slots = new Map<string, TokenSlot>();
  const issued: string[] = [];

  // Shared by every caller waiting for it, so it does not follow one caller's abort signal.
  async function fetchToken(ctx: HttpErrorContext, scope: string): Promise<CachedToken> {
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) form.set('scope', scope);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
    };
    if (config.clientAuth === 'basic') {
      headers.authorization = `Basic ${basic}`;
    } else {
      form.set('client_id', config.clientId);
      form.set('client_secret', config.clientSecret);
    }
    const tokenCtx: HttpErrorContext = { ...ctx, method: 'POST', path: url.pathname };
    const answer = await deps.transport.send(
      {
        origin: url.origin,
        method: 'POST',
        path: url.pathname + url.search,
        headers,
        body: form.toString(),
      },
      tokenCtx,
    );
    const secrets = [config.clientSecret, basic, ...issued];
    if (answer.status < 200 || answer.status >= 300) {
      const errorCtx = answerErrorContext(tokenCtx, answer, secrets);
      if ([400, 401, 403].includes(answer.status)) {
        throw new AuthError(
          errorCtx,
          `the token endpoint refused the client credentials (${answer.status})`,
        );
      }
      throw classifyAnswer(errorCtx, deps.retryAfterCapMs);
    }
    const body = parseAnswerBody(answer.text, answer.headers['content-type']) as {
      access_token?: unknown;
      expires_in?: unknown;
    } | null;
    const token = body?.access_token;
    if (typeof token !== 'string' || token === '') {
      throw new AuthError(
        { ...tokenCtx, status: answer.status },
        'the token endpoint answered without an access_token',
      );
    }
    issued.unshift(token);
    issued.length = Math.min(issued.length, REMEMBERED_TOKENS);
    return { header: `Bearer ${token}`, renewAt: renewAt(body?.expires_in, Date.now()) };
  }

  return {
    async headers(ctx, scopes) {
      const scope = scopes ? [...new Set(scopes)].sort().join(' ') : (config.scope ?? '');
      let slot = slots.get(scope);
      if (!slot) slots.set(scope, (slot = {}));
      if (slot.cached && Date.now() < slot.cached.renewAt)
        return { authorization: slot.cached.header };
      const s = slot;
      s.pending ??= fetchToken(ctx, scope).finally(() => {
        s.pending = undefined;
      });
      s.cached = await s.pending;
      return { authorization: s.cached.header };
    },
    query: {},
    renew(used) {
      // Several requests may fail with the same token: only the first drops it.
      for (const slot of slots.values()) {
        if (slot.cached && used.authorization === slot.cached.header) slot.cached = undefined;
      }
      return true;
    },
    secrets: () => [config.clientSecret, basic, ...issued],
  };
}
