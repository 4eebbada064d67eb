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

/** Only a path of this console: never an open redirect to another site. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) ? next : '/';
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
