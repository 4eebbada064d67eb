/**
 * The audit trail a principal reads: every entry, or with a platform filter (a token's scope,
 * `?platform=`) the entries that name one of its platforms only; an entry naming none (a login, a
 * write through the queue board) is the installation's, shown unfiltered only.
 */
import type { AuditEntry } from '../runs/index.js';
import { readAudit } from '../runs/index.js';
import type { PlatformFilter } from './platform-scope.js';
import type { ServeContext } from './serve-context.js';

/** Entries read at a time while filtering. */
const CHUNK = 500;
/** The whole trail (src/runs/audit.ts keeps the last 10,000). */
const KEPT = 10_000;

export async function readAuditOf(
  ctx: ServeContext,
  platforms: PlatformFilter,
  limit: number,
): Promise<AuditEntry[]> {
  if (!platforms) return await readAudit(ctx.redis, ctx.keys, limit);
  const kept: AuditEntry[] = [];
  for (let start = 0; start < KEPT && kept.length < limit; start += CHUNK) {
    const lines = await ctx.redis.lrange(ctx.keys.audit, start, start + CHUNK - 1);
    for (const line of lines) {
      const entry = JSON.parse(line) as AuditEntry;
      if (entry.platform !== undefined && platforms.has(entry.platform)) kept.push(entry);
      if (kept.length === limit) break;
    }
    if (lines.length < CHUNK) break;
  }
  return kept;
}
