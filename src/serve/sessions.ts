/**
 * Browser sessions of the console: after a login with a token, the browser holds only a random
 * session id in an HttpOnly, SameSite=Strict cookie. Redis keeps the session under the id's
 * SHA-256 (a copy of Redis gives no usable cookie), with who logged in and the session's CSRF
 * token, so any number of consoles share the sessions and a restart logs nobody out. The expiry
 * slides: each use keeps the session for `serve.sessionHours` more.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { RedisClient } from '../redis/index.js';
import { sessionKey } from './keys.js';
import type { Principal } from './tokens.js';

export const SESSION_COOKIE = 'ferry_session';

export interface Session extends Principal {
  /** Sent back by the pages' scripts as `x-csrf-token` (or the form field `_csrf`) on writes. */
  csrf: string;
}

export interface SessionStore {
  create(principal: Principal): Promise<{ id: string; session: Session }>;
  /** The session of a cookie value, its expiry renewed; undefined when unknown or expired. */
  read(id: string): Promise<Session | undefined>;
  remove(id: string): Promise<void>;
}

export function createSessionStore(
  redis: RedisClient,
  prefix: string,
  hours: number,
): SessionStore {
  const ttl = Math.round(hours * 3600);
  return {
    async create(principal) {
      const id = randomBytes(32).toString('base64url');
      const session: Session = { ...principal, csrf: randomBytes(24).toString('base64url') };
      await redis.set(sessionKey(prefix, id), JSON.stringify(session), 'EX', ttl);
      return { id, session };
    },
    async read(id) {
      // A well-formed id only: anything else is not worth a round trip.
      if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
      const key = sessionKey(prefix, id);
      const text = await redis.getex(key, 'EX', ttl);
      if (!text) return undefined;
      const parsed = JSON.parse(text) as Session;
      return {
        name: parsed.name,
        role: parsed.role,
        csrf: parsed.csrf,
        // A session keeps the scope of the token it was opened with.
        ...(parsed.platforms ? { platforms: parsed.platforms } : {}),
      };
    },
    async remove(id) {
      await redis.del(sessionKey(prefix, id));
    },
  };
}

/** Constant-time comparison of a presented CSRF token with the session's. */
export function csrfMatches(session: Session, presented: string | undefined): boolean {
  if (!presented) return false;
  const a = Buffer.from(session.csrf);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}
