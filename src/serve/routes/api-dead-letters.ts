/**
 * Dead letters: `GET /api/dead-letters` (the lines of `ferry dlq list --json`, filtered by
 * pipeline, operation or item key, a page at a time), `GET /api/dead-letters/{id}` (the whole
 * entry, as `ferry dlq show --json`), and an operator's `POST /api/dead-letters/{id}/replay`
 * with an optional edited payload (as `ferry dlq replay`), answered once the replay ended; and
 * an operator's `POST /api/dead-letters/replay` of a selection `{ids}` (the console's list);
 * an operator's `POST /api/dead-letters/{id}/purge` and `POST /api/dead-letters/purge` of a
 * selection `{ids, dryRun?}` or of all a search finds `{filter, expected, dryRun?}` (as `ferry dlq
 * purge`: the items stay undelivered and the next run plans them again), audited.
 */
import type { FastifyInstance } from 'fastify';
import { parseExact, stringifyExact } from '../../base/index.js';
import { UsageError } from '../../errors/index.js';
import {
  type DeadLetter,
  deadLetterRow,
  DeadLettersChangedError,
  NotFoundError,
  recordAudit,
} from '../../runs/index.js';
import { EditedPayloads } from '../../queue/index.js';
import { replayDeadLetters, type ReplayReport } from '../../orchestrate/index.js';
import {
  byPlatform,
  findDeadLetterPage,
  findDeadLetters,
  visibleDeadLetter,
  type DeadLetterSearch,
} from '../find-dead-letters.js';
import { platformFilter, type PlatformFilter } from '../platform-scope.js';
import type { ServeContext } from '../serve-context.js';
import type { Principal } from '../tokens.js';

interface ReplayBody {
  /** The new payload of the entry's one item. */
  payload?: unknown;
  /** New payloads by item key, for an entry of several items. */
  payloads?: Record<string, unknown>;
}

export function deadLetterRoutes(app: FastifyInstance, ctx: ServeContext): void {
  app.get<{
    Querystring: {
      pipeline?: string;
      operation?: string;
      key?: string;
      platform?: string;
      cursor?: string;
      limit?: number;
    };
  }>(
    '/api/dead-letters',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            pipeline: { type: 'string' },
            operation: { type: 'string' },
            key: { type: 'string' },
            platform: { type: 'string' },
            cursor: { type: 'string', pattern: '^[0-9]+$' },
            limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
          },
        },
      },
    },
    async (request) => {
      const { pipeline, operation, key, platform, limit = 100 } = request.query;
      const platforms = platformFilter(ctx.config, request.principal!, platform);
      const at = Number(request.query.cursor ?? 0);
      const search = { pipeline, operation, key };
      const page = await findDeadLetterPage(ctx, search, platforms, at, limit);
      const next = at + page.entries.length;
      return {
        entries: page.entries.map(deadLetterRow),
        ...(next < page.total ? { nextCursor: String(next) } : {}),
      };
    },
  );

  app.get<{ Params: { id: string } }>('/api/dead-letters/:id', async (request, reply) => {
    const entry = await visibleDeadLetter(ctx, request.principal!, request.params.id);
    if (!entry) {
      throw new NotFoundError('dead letter', request.params.id, 'See GET /api/dead-letters.');
    }
    // Written here, not by fastify's JSON.stringify: its amounts keep every digit.
    return reply.type('application/json; charset=utf-8').send(stringifyExact(entry));
  });

  // A scope of its own: its JSON keeps an edited amount's digits (base/exact-json), where
  // JSON.parse would send 12345678901234567.89 as 12345678901234568.
  void app.register(async (exact) => {
    exact.removeContentTypeParser('application/json');
    exact.addContentTypeParser(
      'application/json',
      { parseAs: 'string' },
      (_request, text, done) => {
        try {
          done(null, (text as string).trim() === '' ? undefined : parseExact(text as string));
        } catch (error) {
          done(
            Object.assign(new Error(`The body is not JSON: ${(error as Error).message}`), {
              statusCode: 400,
            }),
          );
        }
      },
    );
    replayRoute(exact, ctx);
  });

  app.post<{ Body: { ids: string[] } }>(
    '/api/dead-letters/replay',
    {
      config: { access: 'operator' },
      schema: {
        body: {
          type: 'object',
          required: ['ids'],
          properties: {
            ids: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'string' } },
          },
        },
      },
    },
    async (request) => {
      const entries = await entriesNamed(ctx, request.principal!, request.body.ids);
      return await replayAudited(ctx, request.principal!.name, entries, []);
    },
  );

  purgeRoutes(app, ctx);
}

const searchField = { type: 'string', minLength: 1 } as const;

const purgeSchema = {
  body: {
    type: 'object',
    additionalProperties: false,
    oneOf: [{ required: ['ids'] }, { required: ['filter'] }],
    properties: {
      ids: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'string', minLength: 1 } },
      /** Every dead letter this search finds (the console's "Purge all"); one field at least. */
      filter: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: {
          pipeline: searchField,
          platform: searchField,
          run: searchField,
          operation: searchField,
          key: searchField,
        },
      },
      /** With a filter: the number the operator confirmed; another number found refuses (409). */
      expected: { type: 'integer', minimum: 0 },
      dryRun: { type: 'boolean', default: false },
    },
  },
} as const;

interface PurgeBody {
  ids?: string[];
  filter?: DeadLetterSearch;
  expected?: number;
  dryRun?: boolean;
}

export interface PurgeAnswer {
  dryRun: boolean;
  /** The entries purged (or, in a dry run, that would be), with their items. */
  purged: Array<{ id: string; pipeline: string; operationId: string; keys: string[] }>;
}

export function purgeRoutes(app: FastifyInstance, ctx: ServeContext): void {
  app.post<{ Params: { id: string }; Body: { dryRun?: boolean } | undefined }>(
    '/api/dead-letters/:id/purge',
    {
      config: { access: 'operator' },
      schema: {
        body: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: { dryRun: { type: 'boolean' } },
        },
      },
    },
    async (request) =>
      await purgeAudited(ctx, request.principal!, [request.params.id], !!request.body?.dryRun),
  );

  app.post<{ Body: PurgeBody }>(
    '/api/dead-letters/purge',
    { config: { access: 'operator' }, schema: purgeSchema },
    async (request) => {
      const { ids, filter, expected, dryRun = false } = request.body;
      const principal = request.principal!;
      if (ids) return await purgeAudited(ctx, principal, ids, dryRun);
      const platforms = platformFilter(ctx.config, principal, filter!.platform);
      return await purgeFound(ctx, principal.name, filter!, platforms, expected, dryRun);
    },
  );
}

/**
 * The entries of these ids; 404 naming those missing, when one is unknown or of a platform the
 * principal does not see.
 */
async function entriesNamed(
  ctx: ServeContext,
  principal: Principal,
  ids: readonly string[],
): Promise<DeadLetter[]> {
  const entries = [];
  const missing = [];
  for (const id of new Set(ids)) {
    const entry = await visibleDeadLetter(ctx, principal, id);
    if (entry) entries.push(entry);
    else missing.push(id);
  }
  if (missing.length > 0) {
    throw new NotFoundError('dead letter', missing.join(', '), 'See GET /api/dead-letters.');
  }
  return entries;
}

/** One audit entry per platform of the entries, naming that platform's ids. */
async function auditEach(
  ctx: ServeContext,
  actor: string,
  action: string,
  entries: readonly DeadLetter[],
  target: (ids: string[]) => string = (ids) => ids.join(','),
): Promise<void> {
  for (const [platform, group] of byPlatform(entries)) {
    const ids = group.map((e) => e.id);
    await recordAudit(ctx.redis, ctx.keys, { actor, action, target: target(ids), platform });
  }
}

/** Purges (as `ferry dlq purge`) every entry named, or none when one is missing; audited. */
async function purgeAudited(
  ctx: ServeContext,
  principal: Principal,
  ids: string[],
  dryRun: boolean,
): Promise<PurgeAnswer> {
  const entries = await entriesNamed(ctx, principal, ids);
  const answer = { dryRun, purged: entries.map(purgedOf) };
  if (dryRun) return answer;
  await ctx.dlq.remove(entries.map((e) => e.id));
  await auditEach(ctx, principal.name, 'dead-letter.purge', entries);
  return answer;
}

/**
 * Purges every entry the search finds, when that is the number the operator confirmed; audited
 * by the search (thousands of ids would swell the trail), not by each id.
 */
async function purgeFound(
  ctx: ServeContext,
  actor: string,
  search: DeadLetterSearch,
  platforms: PlatformFilter,
  expected: number | undefined,
  dryRun: boolean,
): Promise<PurgeAnswer> {
  if (expected === undefined && !dryRun) {
    throw new UsageError(
      'A purge of all a search finds needs {expected}: the number of dead letters you mean to ' +
        'purge (a {dryRun: true} answers it).',
    );
  }
  const entries = await findDeadLetters(ctx, search, platforms);
  if (expected !== undefined && entries.length !== expected) {
    throw new DeadLettersChangedError(expected, entries.length);
  }
  const answer = { dryRun, purged: entries.map(purgedOf) };
  if (dryRun) return answer;
  await ctx.dlq.remove(entries.map((e) => e.id));
  const where = Object.entries(search).map(([field, value]) => `${field}=${value}`);
  await auditEach(
    ctx,
    actor,
    'dead-letter.purge-search',
    entries,
    (ids) => `${where.join(' ')} (${ids.length})`,
  );
  return answer;
}

function purgedOf(e: DeadLetter): PurgeAnswer['purged'][number] {
  return {
    id: e.id,
    pipeline: e.pipeline,
    operationId: e.operationId,
    keys: e.items.map((i) => i.key),
  };
}

/** Replays (as `ferry dlq replay`), answered once the replay ended, and writes the audit line. */
/** `POST /api/dead-letters/{id}/replay`, with an optional edited payload. */
function replayRoute(app: FastifyInstance, ctx: ServeContext): void {
  app.post<{ Params: { id: string }; Body: ReplayBody | undefined }>(
    '/api/dead-letters/:id/replay',
    { config: { access: 'operator' } },
    async (request) => {
      const { id } = request.params;
      const entry = await visibleDeadLetter(ctx, request.principal!, id);
      if (!entry) throw new NotFoundError('dead letter', id, 'See GET /api/dead-letters.');
      const body = request.body ?? {};
      let edits: Array<{ key: string; payload: unknown }> = [];
      if (body.payload !== undefined) {
        if (entry.items.length !== 1) {
          throw new UsageError(
            `Dead letter ${id} holds ${entry.items.length} items: give {payloads: {key: payload}}.`,
          );
        }
        edits = [{ key: entry.items[0]!.key, payload: body.payload }];
      } else if (body.payloads) {
        edits = Object.entries(body.payloads).map(([key, payload]) => ({ key, payload }));
      }
      return await replayAudited(ctx, request.principal!.name, [entry], edits);
    },
  );
}

async function replayAudited(
  ctx: ServeContext,
  actor: string,
  entries: readonly DeadLetter[],
  edits: Array<{ key: string; payload: unknown }>,
): Promise<ReplayReport> {
  const report = await replayDeadLetters({
    config: ctx.config,
    logger: ctx.logger,
    selection: { ids: entries.map((e) => e.id) },
    ...(edits.length > 0 ? { payloads: new EditedPayloads(edits) } : {}),
    dryRun: false,
    localWorker: false,
  });
  const action = edits.length > 0 ? 'dead-letter.replay-edited' : 'dead-letter.replay';
  await auditEach(ctx, actor, action, entries);
  return report;
}
