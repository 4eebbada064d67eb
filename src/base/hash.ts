import { createHash } from 'node:crypto';

/** sha256 hex of the parts, each followed by a newline (ids and keys derived by delivery). */
export function hashParts(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\n');
  return hash.digest('hex');
}
