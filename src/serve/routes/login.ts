/**
 * `/login` (a token once, then an HttpOnly SameSite=Strict session cookie; attempts limited per
 * client address) and `/logout` (ends the session in Redis, so the cookie is worthless even if
 * kept). Both are public routes: they are how credentials come and go.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { loginPage } from '../pages/login-page.js';
import { SESSION_COOKIE, type SessionStore } from '../sessions.js';
import type { TokenMatcher } from '../tokens.js';
import { recordAudit } from '../../runs/index.js';
import type { ServeContext } from '../serve-context.js';

// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const CONTROL_OR_BACKSLASH = /[\u0000-\u001f\u007f-\u009f\\]/;

/** `text` percent-decoded, or undefined when it does not decode (a stray `%`). */
function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * Only a path of this console: never an open redirect to another site. A browser drops tabs and
 * line breaks from a Location and reads `\` as `/`, so `/\t/evil.example` and `/\evil.example`
 * lead to evil.example: a path must start with a single `/` (not `//` or `/\`) and hold no control
 * character or backslash, also once percent-decoded; anything else goes to `/`.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string') return '/';
  const plain = decoded(next);
  const samePath = (path: string): boolean =>
    path.startsWith('/') && !path.startsWith('//') && !CONTROL_OR_BACKSLASH.test(path);
  return plain !== undefined && samePath(next) && samePath(plain) ? next : '/';
}

export function loginRoutes(
  app: FastifyInstance,
  ctx: ServeContext,
  who: TokenMatcher,
  sessions: SessionStore,
): void {
  const htmlReply = (reply: FastifyReply, status: number, text: string): FastifyReply =>
    reply.code(status).type('text/html; charset=utf-8').send(text);

  app.get<{ Querystring: { next?: string } }>(
    '/login',
    { config: { access: 'public', page: true }, schema: { hide: true } },
    async (request, reply) => htmlReply(reply, 200, loginPage(safeNext(request.query.next))),
  );

  app.post<{ Body: { token?: string; next?: string } | undefined }>(
    '/login',
    {
      schema: { hide: true },
      config: {
        access: 'public',
        page: true,
        rateLimit: { max: ctx.config.serve.loginAttemptsPerMinute, timeWindow: 60_000 },
      },
    },
    async (request, reply) => {
      const next = safeNext(request.body?.next);
      const token = request.body?.token ?? '';
      const principal = token ? who(token) : undefined;
      if (!principal) {
        return htmlReply(reply, 401, loginPage(next, 'That token is not known to this console.'));
      }
      const { id } = await sessions.create(principal);
      await recordAudit(ctx.redis, ctx.keys, {
        actor: principal.name,
        action: 'console.login',
        target: principal.role,
      });
      return reply
        .setCookie(SESSION_COOKIE, id, {
          path: '/',
          httpOnly: true,
          sameSite: 'strict',
          secure: request.protocol === 'https',
          maxAge: Math.round(ctx.config.serve.sessionHours * 3600),
        })
        .redirect(next, 303);
    },
  );

  // The session's CSRF token is checked before this runs (access.ts): no logout from another site.
  app.post(
    '/logout',
    { config: { access: 'viewer' }, schema: { hide: true } },
    async (request, reply) => {
      const cookie = request.cookies[SESSION_COOKIE];
      if (cookie) await sessions.remove(cookie);
      return reply.clearCookie(SESSION_COOKIE, { path: '/' }).send({ message: 'Logged out.' });
    },
  );
}
