/**
 * The entity trace: `GET /api/entities/{pipeline}/{key}` (viewer) answers the document
 * `ferry trace --json` prints: the key's state, the changes recent runs planned for it, its dead
 * letters. The pipeline is named as its runs name it (`catalog@north` on platform north); 404 for
 * one that has no file, or of a platform the token does not see.
 */
import type { FastifyInstance } from 'fastify';
import { MAX_TRACED_RUNS, traceEntity, TRACED_RUNS } from '../../runs/index.js';
import { tracedTarget } from '../pipeline-targets.js';
import type { ServeContext } from '../serve-context.js';

export function entityRoutes(app: FastifyInstance, ctx: ServeContext): void {
  app.get<{ Params: { pipeline: string; key: string }; Querystring: { runs?: number } }>(
    '/api/entities/:pipeline/:key',
    {
      schema: {
        description:
          'The trace of one key of a pipeline, as `ferry trace --json`: {pipeline, key, state?, ' +
          'states, changes, runsSearched, deadLetters}.',
        params: {
          type: 'object',
          properties: { pipeline: { type: 'string' }, key: { type: 'string' } },
          required: ['pipeline', 'key'],
        },
        querystring: {
          type: 'object',
          properties: {
            runs: { type: 'integer', minimum: 1, maximum: MAX_TRACED_RUNS, default: TRACED_RUNS },
          },
        },
      },
    },
    async (request) => {
      const { pipeline, key } = request.params;
      const definition = tracedTarget(ctx, request.principal!, pipeline);
      return await traceEntity(ctx, definition, key, request.query.runs ?? TRACED_RUNS);
    },
  );
}
