/**
 * The console's HTTP server (fastify): every route says who may call it (`config.access`:
 * public, viewer or operator; viewer when unsaid), checked before the route runs (access.ts), so
 * a viewer gets 403 on anything that changes state whichever way it asks: the API, a page or the
 * queue board. It reads and writes only Redis: any number of consoles can run beside the workers,
 * and a restart loses nothing (sessions included).
 */
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import { Queue } from 'bullmq';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
} from 'fastify';
import type { Logger } from 'pino';
import type { FerryConfig } from '../config/index.js';
import { httpStatusOf, isFerryError, type ErrorCode } from '../errors/index.js';
import { isRedisConnectionError, withCommandTimeout, type RedisClient } from '../redis/index.js';
import {
  createDeadLetterStore,
  deliveryKeys,
  LANES,
  queueName,
  SCHEDULE_QUEUE,
} from '../runs/index.js';
import { installAccessChecks } from './access.js';
import { errorBody } from './http-errors.js';
import { messagePage } from './pages/error-page.js';
import { loginPage } from './pages/login-page.js';
import { mountQueueBoard } from './queue-board.js';
import type { ServeContext } from './serve-context.js';
import { createSessionStore } from './sessions.js';
import { healthRoutes } from './routes/health.js';
import { metricsRoutes } from './routes/metrics.js';
import { pipelineRoutes } from './routes/api-pipelines.js';
import { queueRoutes } from './routes/api-queues.js';
import { guardRoutes } from './routes/api-guards.js';
import { undoRoutes } from './routes/api-undo.js';
import { runRoutes } from './routes/api-runs.js';
import { auditRoutes } from './routes/api-audit.js';
import { deadLetterRoutes } from './routes/api-dead-letters.js';
import { entityRoutes } from './routes/api-entities.js';
import { activeRunIdOf, importRoutes, stoppedRunIdOf } from './routes/api-imports.js';
import { loginRoutes, safeNext } from './routes/login.js';
import { pageRoutes } from './routes/pages.js';
import { principalOf, samePrincipal, tokenMatcher } from './tokens.js';

/** Connection states in which Redis is known not to answer. */
const DOWN = new Set(['reconnecting', 'close', 'end']);

/** pino's level number for warn. */
const WARN = 40;

export async function buildServer(options: {
  config: FerryConfig;
  redis: RedisClient;
  logger: Logger;
}): Promise<FastifyInstance> {
  const { config, logger } = options;
  const planner = options.redis;
  const redis = withCommandTimeout(planner, config.serve.redisTimeoutMs);
  const keys = deliveryKeys(config.redis.prefix);
  const queues = [...LANES.map(queueName), SCHEDULE_QUEUE].map((name) => {
    const queue = new Queue(name, { connection: redis, prefix: keys.bullPrefix });
    // Redis down is /readyz's to report; the connection itself reconnects.
    queue.on('error', () => undefined);
    return queue;
  });
  const ctx: ServeContext = {
    config,
    redis,
    planner,
    keys,
    dlq: createDeadLetterStore(redis, keys),
    logger,
    queues,
  };
  // Quiet: a line per request would drown the workers' logs; warnings and errors still show.
  const app = Fastify({
    loggerInstance: logger.child(
      { component: 'serve' },
      { level: logger.levelVal > WARN ? logger.level : 'warn' },
    ) as FastifyBaseLogger,
  });
  app.addHook('onClose', async () => {
    await Promise.all(queues.map((q) => q.close()));
    redis.disconnect();
  });
  const who = tokenMatcher(config.serve.tokens);
  const sessions = createSessionStore(redis, config.redis.prefix, config.serve.sessionHours);

  await app.register(helmet);
  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'FERRY_LOGIN_RATE_LIMITED',
      message: `Too many login attempts from this address: try again in ${Math.ceil(context.ttl / 1000)} s.`,
    }),
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Ferry console API',
        version: '1',
        description:
          'The documents are those `ferry ... --json` prints. Send `Authorization: Bearer <token>`; a viewer token reads, an operator token also acts.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
  });
  // The pages' forms (login) post url-encoded fields.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  installAccessChecks(
    app,
    who,
    sessions,
    (p) => config.serve.tokens.some((t) => samePrincipal(principalOf(t), p)),
    // Known down: answer at once. Still opening: the read waits, bounded by its deadline.
    () => !DOWN.has(redis.status),
  );

  app.setErrorHandler((error, request, reply) => {
    const failure = describeFailure(error);
    if (failure.status >= 500) request.log.error({ err: error }, 'console request failed');
    if (failure.code === 'FERRY_LOGIN_RATE_LIMITED' && request.method === 'POST') {
      return reply
        .code(429)
        .type('text/html; charset=utf-8')
        .send(loginPage(safeNext((request.body as { next?: unknown })?.next), failure.message));
    }
    if (wantsPage(request)) {
      return reply
        .code(failure.status)
        .type('text/html; charset=utf-8')
        .send(messagePage(pageTitle(failure.status), failure.message, request.principal));
    }
    return reply
      .code(failure.status)
      .send({ ...errorBody(failure.code, failure.message), ...failure.extra });
  });

  // An address with no route: a page for a browser, the API's error document for anything else.
  app.setNotFoundHandler((request, reply) => {
    const message = `Nothing is at ${request.url}. The console's pages are listed at the top.`;
    if (browserWants(request)) {
      return reply
        .code(404)
        .type('text/html; charset=utf-8')
        .send(messagePage('Not found', message, request.principal));
    }
    return reply.code(404).send(errorBody('FERRY_NOT_FOUND', message));
  });

  // A scope of its own: its body parsers (multipart, any type as a stream) are for imports only.
  await app.register(async (scope) => await importRoutes(scope, ctx));
  await app.register(async (scope) => {
    healthRoutes(scope, ctx);
    metricsRoutes(scope, ctx);
    pipelineRoutes(scope, ctx);
    runRoutes(scope, ctx);
    guardRoutes(scope, ctx);
    undoRoutes(scope, ctx);
    queueRoutes(scope, ctx);
    auditRoutes(scope, ctx);
    deadLetterRoutes(scope, ctx);
    entityRoutes(scope, ctx);
    loginRoutes(scope, ctx, who, sessions);
    pageRoutes(scope, ctx);
    scope.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  });
  await mountQueueBoard(app, ctx, queues);
  return app;
}

interface Failure {
  status: number;
  code: ErrorCode;
  message: string;
  extra: Record<string, unknown>;
}

/**
 * fastify's own refusals (a body it cannot parse, too large, of a type no route takes) by their
 * status, as Ferry's codes: the status then comes from the one table like every other answer.
 */
const FRAMEWORK_CODES: Readonly<Record<number, ErrorCode>> = {
  404: 'FERRY_NOT_FOUND',
  413: 'FERRY_UPLOAD_TOO_LARGE',
  415: 'FERRY_UNSUPPORTED_MEDIA_TYPE',
  429: 'FERRY_LOGIN_RATE_LIMITED',
};

function failure(code: ErrorCode, message: string, extra: Record<string, unknown> = {}): Failure {
  return { status: httpStatusOf(code), code, message, extra };
}

/** The answer an error gets: decided by its stable code, never by its message. */
function describeFailure(error: unknown): Failure {
  if (isFerryError(error)) {
    const activeRunId = activeRunIdOf(error);
    const runId = stoppedRunIdOf(error);
    return failure(error.code, error.message, {
      ...(activeRunId ? { activeRunId } : {}),
      ...(runId ? { runId } : {}),
    });
  }
  if (isRedisConnectionError(error)) return failure('FERRY_REDIS_UNAVAILABLE', REDIS_GONE);
  const { statusCode, code } = error as { statusCode?: number; code?: string };
  if (code === 'FERRY_LOGIN_RATE_LIMITED') {
    return failure('FERRY_LOGIN_RATE_LIMITED', (error as Error).message);
  }
  if (statusCode && statusCode < 500) {
    return failure(FRAMEWORK_CODES[statusCode] ?? 'FERRY_BAD_REQUEST', (error as Error).message);
  }
  return failure('FERRY_INTERNAL', 'The console failed; see its log.');
}

const REDIS_GONE =
  'Redis stopped answering while this was read: try again once /readyz answers 200.';

function wantsPage(request: FastifyRequest): boolean {
  return request.routeOptions.config?.page === true && browserWants(request);
}

/** A browser's GET of a page (a script asking for JSON, or any /api/ address, gets JSON). */
function browserWants(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !request.url.startsWith('/api/') &&
    !/application\/json/.test(accept) &&
    (/text\/html/.test(accept) || request.routeOptions.config?.page === true)
  );
}

function pageTitle(status: number): string {
  return status === 404 ? 'Not found' : status < 500 ? 'Cannot show this' : 'Something failed';
}
