/**
 * Who is asking, and may they: every request but the public ones carries a bearer token (scripts,
 * checks) or the console's session cookie (a browser after /login). No or unknown credentials:
 * 401, or for a page a redirect to /login; a viewer on a route that changes anything: 403. A
 * write made with the cookie must also carry the session's CSRF token (header `x-csrf-token` or
 * form field `_csrf`); the queue board's own writes, which cannot send it, must come from the
 * console's own origin instead. The cookie is SameSite=Strict besides. A token scoped to platforms
 * gets 404 on what all platforms share (the queues, the metrics): platform-scope.ts scopes the rest.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './http-errors.js';
import { csrfMatches, SESSION_COOKIE, type Session, type SessionStore } from './sessions.js';
import { allows, type Principal, type Role, type TokenMatcher } from './tokens.js';
import { forbiddenPage, messagePage } from './pages/error-page.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (default viewer). */
    access?: Role | 'public';
    /** An HTML page: without credentials it sends the browser to /login. */
    page?: boolean;
    /** Cookie writes are checked by origin, not by CSRF token (the queue board's API). */
    originChecked?: boolean;
    /**
     * The installation's, shared by every platform (the queues, /metrics): a token scoped to
     * platforms gets 404, as for an address that does not exist.
     */
    shared?: boolean;
  }
  interface FastifyRequest {
    principal?: Principal;
    /** Set when the request came with the session cookie (not a bearer token). */
    session?: Session;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function installAccessChecks(
  app: FastifyInstance,
  who: TokenMatcher,
  sessions: SessionStore,
  stillConfigured: (principal: Principal) => boolean,
  redisReady: () => boolean,
): void {
  app.addHook('onRequest', async (request, reply) => {
    const { access = 'viewer', page = false } = request.routeOptions.config;
    if (access === 'public') return;
    // Everything but health reads Redis: while it is down, say so at once instead of waiting on it.
    if (!redisReady()) return unavailable(request, reply);
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    let principal = bearer ? who(bearer) : undefined;
    const cookie = request.cookies[SESSION_COOKIE];
    if (!principal && !bearer && cookie) {
      const session = await sessions.read(cookie);
      // A token removed from the config (or given another role or scope) ends its sessions.
      if (session && stillConfigured(session)) {
        principal = {
          name: session.name,
          role: session.role,
          ...(session.platforms ? { platforms: session.platforms } : {}),
        };
        request.session = session;
      }
    }
    if (!principal) {
      if (page && SAFE_METHODS.has(request.method)) {
        return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 303);
      }
      return reply
        .code(401)
        .send(
          errorBody(
            'FERRY_UNAUTHORIZED',
            'Send Authorization: Bearer <token> with a known token, or log in at /login.',
          ),
        );
    }
    request.principal = principal;
    if (request.routeOptions.config.shared && principal.platforms) {
      reply.callNotFound();
      return reply;
    }
    if (!allows(principal.role, access)) return deny(request, reply, principal);
  });

  // After the body is parsed, so that a form's `_csrf` field counts.
  app.addHook('preHandler', async (request, reply) => {
    const session = request.session;
    if (!session || SAFE_METHODS.has(request.method)) return;
    const { originChecked = false } = request.routeOptions.config;
    const ok = originChecked ? sameOrigin(request) : csrfMatches(session, csrfOf(request));
    if (!ok) {
      return reply
        .code(403)
        .send(
          errorBody(
            'FERRY_CSRF',
            'This write came without the page’s CSRF token (or from another origin): reload the page and try again.',
          ),
        );
    }
  });
}

function unavailable(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const message =
    'Redis does not answer, and the console reads everything from it. Start Redis (or check ' +
    'REDIS_URL); the console answers again as soon as Redis does. /readyz tells when.';
  reply.code(503).header('retry-after', '5');
  if (request.routeOptions.config.page) {
    return reply
      .type('text/html; charset=utf-8')
      .send(messagePage('Redis does not answer', message));
  }
  return reply.send(errorBody('FERRY_REDIS_UNAVAILABLE', message));
}

function csrfOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-csrf-token'];
  if (typeof header === 'string') return header;
  const body = request.body as { _csrf?: unknown } | undefined;
  return typeof body?._csrf === 'string' ? body._csrf : undefined;
}

function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

function deny(request: FastifyRequest, reply: FastifyReply, principal: Principal): FastifyReply {
  const message = `This needs an operator token; "${principal.name}" is a viewer.`;
  if (request.routeOptions.config.page) {
    return reply.code(403).type('text/html').send(forbiddenPage(principal, message));
  }
  return reply.code(403).send(errorBody('FERRY_FORBIDDEN', message));
}
