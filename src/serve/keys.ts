/** Every Redis key the console builds. */
import { createHash } from 'node:crypto';

/** A browser session (sessions.ts), under its id's SHA-256: a copy of Redis gives no cookie. */
export function sessionKey(prefix: string, id: string): string {
  return `${prefix}:console:session:${createHash('sha256').update(id).digest('hex')}`;
}
