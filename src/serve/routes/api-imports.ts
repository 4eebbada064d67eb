/**
 * `POST /api/pipelines/{name}/runs` (operator): an on-demand import. The file comes as the raw
 * body or as a multipart part named `file`, is streamed to disk, and becomes a run of the
 * pipeline (trigger http, started by the token's name): 202 with its runId, or with
 * `?wait=true` 200 and the run's document once it ended; `?resendAll=true` sends it all once after
 * Redis lost its data (as `ferry run --resend-all`). 404 unknown pipeline, 409 with
 * `activeRunId` while the pipeline runs, 413 past serve.uploadMaxBytes, 415 for a type the
 * pipeline's connector does not read.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import {
  connectorForMediaType,
  connectorForPath,
  getConnector,
} from '../../../connectors/index.js';
import { isFerryError } from '../../errors/index.js';
import {
  loadPipeline,
  MassDeleteGuardError,
  ValueGuardError,
  type PipelineDefinition,
} from '../../pipeline/index.js';
import { RunActiveError, followRun, buildRunReport, recordAudit } from '../../runs/index.js';
import { startRun } from '../../orchestrate/index.js';
import { platformOfPipeline } from '../platform-scope.js';
import { resolveTarget } from '../pipeline-targets.js';
import type { ServeContext } from '../serve-context.js';
import type { Principal } from '../tokens.js';
import {
  removeOldUploads,
  saveUpload,
  UnsupportedMediaTypeError,
  UploadTooLargeError,
  uploadsDir,
} from '../uploads.js';

/** The pipeline an import names (qualified on a platform); 404 for one the token does not see. */
function loadImportable(
  ctx: ServeContext,
  principal: Principal,
  named: string,
): PipelineDefinition {
  return loadPipeline(resolveTarget(ctx.config, principal, named).name, ctx.config);
}

/** Types that say nothing of the content (curl -T sends none; browsers fall back to these). */
const UNTYPED = new Set(['', 'application/octet-stream']);

/**
 * The extension the saved file gets, from its type (or, for an untyped body, the uploaded file's
 * name, else the pipeline's own connector); refused when the pipeline reads another.
 */
function extensionFor(
  definition: PipelineDefinition,
  mediaType: string | undefined,
  fileName: string | undefined,
): string {
  const type = (mediaType ?? '').split(';')[0]!.trim().toLowerCase();
  const wanted =
    definition.source.connector ?? connectorForPath(definition.source.file ?? '')?.name;
  const byName = fileName ? connectorForPath(fileName) : undefined;
  const given = UNTYPED.has(type)
    ? (byName ?? (wanted ? getConnector(wanted) : undefined))
    : (connectorForMediaType(type) ?? byName);
  if (!given || (wanted && given.name !== wanted)) {
    throw new UnsupportedMediaTypeError(
      `Pipeline "${definition.name}" reads ${wanted ?? 'csv, json, xml or xlsx'}; a file of type ` +
        `"${type || 'none'}" is not one it can read. Send it as ${
          wanted === 'csv' ? 'text/csv' : wanted === 'xlsx' ? 'the XLSX type' : `a ${wanted} type`
        }.`,
      { pipeline: definition.name, contentType: type },
    );
  }
  return given.extensions[0]!;
}

/** The uploaded file's own name (its last path segment), or `upload` for a bare body. */
function displayName(fileName: string | undefined): string {
  const base = fileName?.split(/[\\/]/).pop()?.trim();
  return base ? base : 'upload';
}

async function refuseWhileActive(ctx: ServeContext, pipeline: string): Promise<void> {
  const active = await ctx.redis.get(ctx.keys.activeRun(pipeline));
  if (active) throw new RunActiveError(pipeline, active);
}

export async function importRoutes(app: FastifyInstance, ctx: ServeContext): Promise<void> {
  const maxBytes = ctx.config.serve.uploadMaxBytes;
  await app.register(multipart, { limits: { fileSize: maxBytes, files: 1 } });
  // Any other body is the file itself: handed over as a stream, never read whole.
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  // PUT too: `curl -T stores.csv <url>` sends the file with PUT.
  app.route<{ Params: { name: string }; Querystring: { wait?: boolean; resendAll?: boolean } }>({
    method: ['POST', 'PUT'],
    url: '/api/pipelines/:name/runs',
    config: { access: 'operator' },
    bodyLimit: maxBytes,
    schema: {
      querystring: {
        type: 'object',
        properties: {
          wait: { type: 'boolean', default: false },
          resendAll: { type: 'boolean', default: false },
        },
      },
    },
    handler: async (request, reply) => {
      const definition = loadImportable(ctx, request.principal!, request.params.name);
      const name = definition.name;
      await refuseWhileActive(ctx, name);
      let body: Readable;
      let mediaType: string | undefined;
      let fileName: string | undefined;
      if (request.isMultipart()) {
        const part = await request.file();
        if (!part || part.fieldname !== 'file') {
          throw new UnsupportedMediaTypeError(
            'A multipart import needs its file in a part named "file".',
          );
        }
        body = part.file;
        mediaType = part.mimetype;
        fileName = part.filename;
      } else {
        const declared = Number(request.headers['content-length'] ?? 0);
        if (declared > maxBytes) throw new UploadTooLargeError(maxBytes);
        body = request.body as Readable;
        mediaType = request.headers['content-type'];
      }
      const extension = extensionFor(definition, mediaType, fileName);
      const uploadName = displayName(fileName);
      const dir = uploadsDir(ctx.config.delivery.reportsDir);
      await removeOldUploads(dir, ctx.config.serve.uploadRetentionDays);
      const file = await saveUpload(body, dir, extension, maxBytes);
      const actor = request.principal!.name;
      const action = request.query.resendAll ? 'run.import-resend-all' : 'run.import';
      const audit = { actor, action, platform: platformOfPipeline(name) };
      const started = await startRun({
        config: ctx.config,
        redis: ctx.planner,
        logger: ctx.logger,
        pipeline: name,
        // Rows and errors name the file the person sent, never where the server keeps it.
        source: { file, name: uploadName },
        sourceName: uploadName,
        trigger: 'http',
        startedBy: request.principal!.name,
        ...(request.query.resendAll ? { resendAll: true } : {}),
      }).catch(async (error: unknown) => {
        // An import a guard stopped is an import too: audited, naming the stopped run.
        const stopped = stoppedRunIdOf(error);
        if (stopped) await recordAudit(ctx.redis, ctx.keys, { ...audit, target: stopped });
        throw error;
      });
      await recordAudit(ctx.redis, ctx.keys, { ...audit, target: started.runId });
      if (!request.query.wait) {
        const status = (await buildRunReport(ctx.redis, ctx.keys, ctx.dlq, started.runId)).status;
        return reply
          .code(202)
          .header('location', `/api/runs/${started.runId}`)
          .send({ runId: started.runId, status });
      }
      // The client hanging up stops the waiting, not the run.
      const gone = new AbortController();
      request.raw.once('close', () => gone.abort());
      await followRun(ctx.redis, ctx.keys, started.runId, () => undefined, gone.signal);
      return await buildRunReport(ctx.redis, ctx.keys, ctx.dlq, started.runId);
    },
  });
}

/**
 * A guard stop's answer carries the run it recorded (`runId`), so the page that sent the file can
 * link to it (docs/CONSOLE.md, HTTP imports).
 */
export function stoppedRunIdOf(error: unknown): string | undefined {
  if (!(error instanceof MassDeleteGuardError || error instanceof ValueGuardError))
    return undefined;
  const runId = (error.details as { runId?: unknown }).runId;
  return typeof runId === 'string' ? runId : undefined;
}

/** A RunActiveError's answer carries the active run's id (docs/CONSOLE.md, HTTP imports). */
export function activeRunIdOf(error: unknown): string | undefined {
  return isFerryError(error) && error instanceof RunActiveError
    ? String(error.details.runId)
    : undefined;
}
