/**
 * The console's HTTP server (fastify): every route says who may call it (`config.access`:
 * public, viewer or operator; viewer when unsaid), checked before the route runs, so a viewer
 * gets 403 on anything that changes state whichever way it asks. It reads and writes only Redis:
 * any number of consoles can run beside the workers, and a restart loses nothing.
 */
import swagger from '@fastify/swagger';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { FerryConfig } from '../config/schema.js';
import { isFerryError } from '../errors/index.js';
import type { RedisClient } from '../redis/connection.js';
import { createDeadLetterStore } from '../queue/dlq/dead-letter-store.js';
import { deliveryKeys } from '../queue/keys.js';
import { errorBody, httpStatusOf } from './http-errors.js';
import type { ServeContext } from './serve-context.js';
import { healthRoutes } from './routes/health.js';
import { metricsRoutes } from './routes/metrics.js';
import { pipelineRoutes } from './routes/api-pipelines.js';
import { queueRoutes } from './routes/api-queues.js';
import { runRoutes } from './routes/api-runs.js';
import { auditRoutes } from './routes/api-audit.js';
import { deadLetterRoutes } from './routes/api-dead-letters.js';
import { activeRunIdOf, importRoutes } from './routes/api-imports.js';
import { allows, tokenMatcher, type Principal, type Role } from './tokens.js';

/** pino's level number for warn. */
const WARN = 40;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (default viewer). */
    access?: Role | 'public';
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

export async function buildServer(options: {
  config: FerryConfig;
  redis: RedisClient;
  logger: Logger;
}): Promise<FastifyInstance> {
  const { config, redis, logger } = options;
  const keys = deliveryKeys(config.redis.prefix);
  const ctx: ServeContext = {
    config,
    redis,
    keys,
    dlq: createDeadLetterStore(redis, keys),
    logger,
  };
  // Quiet: a line per request would drown the workers' logs; warnings and errors still show.
  const app = Fastify({
    loggerInstance: logger.child(
      { component: 'serve' },
      { level: logger.levelVal > WARN ? logger.level : 'warn' },
    ) as FastifyBaseLogger,
  });
  const who = tokenMatcher(config.serve.tokens);

  await app.register(helmet);
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

  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access ?? 'viewer';
    if (access === 'public') return;
    const header = request.headers.authorization ?? '';
    const token = /^Bearer (.+)$/i.exec(header)?.[1];
    const principal = token ? who(token) : undefined;
    if (!principal) {
      return reply
        .code(401)
        .send(
          errorBody('FERRY_UNAUTHORIZED', 'Send Authorization: Bearer <token> with a known token.'),
        );
    }
    if (!allows(principal.role, access)) {
      return reply
        .code(403)
        .send(
          errorBody(
            'FERRY_FORBIDDEN',
            `This needs an operator token; "${principal.name}" is a viewer.`,
          ),
        );
    }
    request.principal = principal;
  });

  app.setErrorHandler((error, request, reply) => {
    if (isFerryError(error)) {
      const activeRunId = activeRunIdOf(error);
      return reply
        .code(httpStatusOf(error.code))
        .send({ ...errorBody(error.code, error.message), ...(activeRunId ? { activeRunId } : {}) });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status < 500) {
      return reply.code(status).send(errorBody('FERRY_USAGE', (error as Error).message));
    }
    request.log.error({ err: error }, 'console request failed');
    return reply.code(500).send(errorBody('FERRY_INTERNAL', 'The console failed; see its log.'));
  });

  // A scope of its own: its body parsers (multipart, any type as a stream) are for imports only.
  await app.register(async (scope) => await importRoutes(scope, ctx));
  await app.register(async (scope) => {
    healthRoutes(scope, ctx);
    metricsRoutes(scope, ctx);
    pipelineRoutes(scope, ctx);
    runRoutes(scope, ctx);
    queueRoutes(scope, ctx);
    auditRoutes(scope, ctx);
    deadLetterRoutes(scope, ctx);
    scope.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  });
  return app;
}
