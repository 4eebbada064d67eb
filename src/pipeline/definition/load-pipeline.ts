/**
 * loadPipeline(name, config): reads <pipelines.dir>/NAME.yaml, validates it (strict zod objects,
 * errors by dotted path), checks its operations against the configured listing, compiles its
 * mappings and checks its connector options. Every problem is found here, before any record.
 * A file with `direction: export` is an export pipeline (export-schema.ts): loadExportPipeline
 * loads it, loadAnyPipeline either kind.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { didYouMean } from '../../base/index.js';
import {
  formatIssues,
  PROJECT_ROOT,
  readYamlFile,
  type FerryConfig,
  interpolate,
  assertPlatform,
  DEFAULT_PLATFORM,
  pipelineOnPlatform,
  platformConfig,
  splitPipelineName,
} from '../../config/index.js';
import { ConfigError, type ConfigIssue, FerryError } from '../../errors/index.js';
import { resolveBindings } from '../../interface/index.js';
import { displayPath } from '../display-path.js';
import { inlineTable, type LookupTable } from '../lookups/lookup-table.js';
import type { CompileContext } from '../mapping/field-types.js';
import { checkSourceOptions } from '../source/read-records.js';
import { compileEntities } from './compile-entities.js';
import { compileExport } from './compile-export.js';
import type { PipelineDefinition } from './definition-types.js';
import { exportPipelineSchema } from './export-schema.js';
import type { ExportDefinition } from './export-types.js';
import { checkPayloadPaths } from './payload-paths.js';
import { pipelineSchema, type FileLookupSpec, type PipelineFile } from './pipeline-schema.js';
import { compileStages } from './stages.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** The folder of pipeline files: pipelines.dir from the working directory, else the project's. */
export function pipelinesDir(config: FerryConfig): string {
  const dir = config.pipelines.dir;
  if (isAbsolute(dir)) return dir;
  const local = resolve(dir);
  return existsSync(local) ? local : resolve(PROJECT_ROOT, dir);
}

/** The names of the pipeline files in `dir` (without .yaml), in name order. */
function namesIn(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => f.slice(0, -5))
        .sort()
    : [];
}

export function pipelineNames(config: FerryConfig): string[] {
  return namesIn(pipelinesDir(config));
}

function available(dir: string): string {
  const names = namesIn(dir);
  return names.length > 0 ? names.join(', ') : 'none';
}

function checkChangeTypes(
  file: PipelineFile,
  definition: PipelineDefinition,
  ctx: CompileContext,
): void {
  for (const [value, kind] of Object.entries(file.changeType?.values ?? {})) {
    if (!definition.entities.some((e) => e.on.has(kind))) {
      ctx.issues.push({
        path: `changeType.values.${value}`,
        message: `no entity handles ${kind} (give one an operations.${kind})`,
      });
    }
  }
  if (file.deletes.enabled && !definition.entities.some((e) => e.operations.delete)) {
    ctx.issues.push({
      path: 'deletes.enabled',
      message: 'no entity has a delete operation (operations.delete)',
    });
  }
}

/** An entry of `lookups:` read from a file rather than written inline. */
function isFileLookup(entry: PipelineFile['lookups'][string]): entry is FileLookupSpec {
  return typeof entry.options === 'object';
}

/**
 * Compiles a parsed pipeline file; `file` is the path shown in messages. File lookups take their
 * tables from `tables` (read by withLookupFiles before a plan); without them they are empty.
 */
export function compilePipeline(
  name: string,
  file: string,
  parsed: PipelineFile,
  config: FerryConfig,
  baseDir = PROJECT_ROOT,
  tables: Readonly<Record<string, LookupTable>> = {},
): PipelineDefinition {
  const lookups: Record<string, LookupTable> = {};
  const fileLookups: Record<string, FileLookupSpec> = {};
  for (const [lookup, entry] of Object.entries(parsed.lookups)) {
    if (!isFileLookup(entry)) lookups[lookup] = inlineTable(lookup, entry);
    else {
      fileLookups[lookup] = entry;
      lookups[lookup] = tables[lookup] ?? {
        map: new Map(),
        label: `lookup ${lookup} (not read)`,
        inline: false,
        identity: entry,
      };
    }
  }
  const ctx: CompileContext = { lookups, issues: [] };
  const bindings = resolveBindings(config.interface.bindings);
  // With the platform's description, its request schemas judge payloads, not Ferry's assumed ones.
  const judged = config.interface.openapi
    ? { ...parsed, entities: parsed.entities.map((e) => ({ ...e, schema: e.schema ?? 'none' })) }
    : parsed;
  const entities = compileEntities(judged, config.interface.listing, bindings, ctx);
  const definition: PipelineDefinition = {
    name,
    platform: config.platform ?? DEFAULT_PLATFORM,
    file,
    mode: parsed.mode,
    ...(parsed.description ? { description: parsed.description } : {}),
    source: parsed.source,
    schedule: parsed.schedule,
    window: parsed.window,
    baseDir,
    changeType: parsed.changeType,
    deletes: parsed.deletes,
    ...(parsed.guards ? { guards: parsed.guards } : {}),
    entities,
    stages: compileStages(parsed.stages, entities, ctx),
    notify: parsed.notify,
    fileLookups,
    withLookupTables: (read) => compilePipeline(name, file, parsed, config, baseDir, read),
  };
  checkChangeTypes(parsed, definition, ctx);
  ctx.issues.push(...checkPayloadPaths(parsed, entities));
  ctx.issues.push(...checkSourceOptions(parsed.source));
  if (ctx.issues.length > 0) throw new ConfigError(file, ctx.issues);
  return definition;
}

export type AnyPipeline =
  | { direction: 'import'; definition: PipelineDefinition }
  | { direction: 'export'; definition: ExportDefinition };

/**
 * `${NAME}` in the pipeline's `source` (an SFTP password, S3 keys, a URL's token) from the
 * environment or NAME_FILE, as in the config file; the rest of the file is taken as written.
 */
function withSourceSecrets(shown: string, raw: unknown): unknown {
  const source = (raw as { source?: unknown } | null)?.source;
  if (!source || typeof source !== 'object') return raw;
  const issues: ConfigIssue[] = [];
  const resolved = interpolate(source, process.env, ['source'], issues);
  if (issues.length > 0) throw new ConfigError(shown, issues);
  return { ...(raw as object), source: resolved };
}

function compileAny(name: string, shown: string, raw: unknown, config: FerryConfig): AnyPipeline {
  if ((raw as { direction?: unknown } | null)?.direction === 'export') {
    const parsed = exportPipelineSchema.safeParse(raw);
    if (!parsed.success) throw new ConfigError(shown, formatIssues(parsed.error));
    return { direction: 'export', definition: compileExport(name, shown, parsed.data, config) };
  }
  const parsed = pipelineSchema.safeParse(withSourceSecrets(shown, raw));
  if (!parsed.success) throw new ConfigError(shown, formatIssues(parsed.error));
  const file = withOverrides(shown, parsed.data, config.platform ?? DEFAULT_PLATFORM);
  return { direction: 'import', definition: compilePipeline(name, shown, file, config) };
}

/** The file as it is on `platform`: its `overrides.<platform>.fields` in place of the fields named. */
function withOverrides(shown: string, file: PipelineFile, platform: string): PipelineFile {
  const fields = file.overrides[platform]?.fields;
  if (!fields || Object.keys(fields).length === 0) return file;
  const entities = file.entities.map((e) => ({ ...e, fields: { ...e.fields } }));
  const issues: ConfigIssue[] = [];
  for (const [target, spec] of Object.entries(fields)) {
    const dot = target.indexOf('.');
    const entityName = target.slice(0, dot);
    const entity = entities.find((e) => (e.name ?? e.operations.upsert ?? '') === entityName);
    if (dot <= 0 || !entity) {
      issues.push({
        path: `overrides.${platform}.fields.${target}`,
        message: `expected <entity>.<field> of an entity of this pipeline (${entities.map((e) => e.name).join(', ')})`,
      });
      continue;
    }
    const field = target.slice(dot + 1);
    if (!Object.hasOwn(entity.fields, field)) {
      issues.push({
        path: `overrides.${platform}.fields.${target}`,
        message: `entity ${entityName} has no field ${field}.${didYouMean(field, Object.keys(entity.fields))} Its fields: ${Object.keys(entity.fields).join(', ')}.`,
      });
      continue;
    }
    entity.fields[field] = spec;
  }
  if (issues.length > 0) throw new ConfigError(shown, issues);
  return { ...file, entities };
}

interface PipelineFileFound {
  path: string;
  shown: string;
  raw: unknown;
  /** The platforms it delivers to, as the file says (`platform`, `platforms`, else default). */
  platforms: string[];
}

/** Reads the file of the pipeline `base` (a name without `@platform`). */
function readPipelineFile(base: string, config: FerryConfig): PipelineFileFound {
  const dir = pipelinesDir(config);
  if (!NAME.test(base)) {
    throw new ConfigError('pipeline name', [
      {
        path: base,
        message: `expected the name of a file in ${displayPath(dir)} without .yaml (letters, digits, _ . -), and @platform to name one of its platforms; pipelines: ${available(dir)}`,
      },
    ]);
  }
  const path = resolve(dir, `${base}.yaml`);
  const shown = displayPath(path);
  if (!existsSync(path)) {
    throw new ConfigError(shown, [
      {
        path: '',
        message:
          `no such pipeline.${didYouMean(base, namesIn(dir))} Pipelines in ` +
          `${displayPath(dir)}: ${available(dir)}`,
      },
    ]);
  }
  const raw = readOnce(path);
  const r = (raw ?? {}) as { platform?: unknown; platforms?: unknown };
  const named = Array.isArray(r.platforms)
    ? r.platforms.filter((p): p is string => typeof p === 'string')
    : typeof r.platform === 'string'
      ? [r.platform]
      : [DEFAULT_PLATFORM];
  named.forEach((platform, i) =>
    assertPlatform(
      config,
      platform,
      `${shown}: ${Array.isArray(r.platforms) ? `platforms.${i}` : 'platform'}`,
    ),
  );
  return { path, shown, raw, platforms: named };
}

/** The file's data, read again only once it changed (each load of a name reads it). */
function readOnce(path: string): unknown {
  const { mtimeMs, size } = statSync(path);
  const known = files.get(path);
  if (known && known.mtimeMs === mtimeMs && known.size === size) return known.raw;
  const raw = readYamlFile(path);
  files.set(path, { mtimeMs, size, raw });
  return raw;
}

const files = new Map<string, { mtimeMs: number; size: number; raw: unknown }>();

/**
 * The platform a name runs on: the one after `@`, else the file's only one (or `default` among
 * several); a pipeline that fans out to several without `default` needs one named.
 */
function platformToRun(name: string, found: PipelineFileFound): string {
  const { pipeline, platform } = splitPipelineName(name);
  const explicit = name.includes('@');
  if (explicit && found.platforms.includes(platform)) return platform;
  if (explicit) {
    throw new ConfigError(found.shown, [
      {
        path: 'platforms',
        message: `${pipeline} does not deliver to ${platform} (it delivers to ${found.platforms.join(', ')})`,
      },
    ]);
  }
  if (found.platforms.includes(DEFAULT_PLATFORM)) return DEFAULT_PLATFORM;
  if (found.platforms.length === 1) return found.platforms[0] as string;
  throw new ConfigError(found.shown, [
    {
      path: 'platforms',
      message: `${pipeline} delivers to ${found.platforms.join(', ')}: name one (${found.platforms.map((p) => pipelineOnPlatform(pipeline, p)).join(', ')}, or --platform)`,
    },
  ]);
}

/**
 * The names a pipeline runs under, one per platform it delivers to: `catalog` -> `catalog` (on
 * default), or `catalog@north`, `catalog@south` for a fan-out; `catalog@north` -> itself, once
 * the file says it delivers there. `platform` (a command's `--platform`) keeps that one only.
 */
export function pipelineTargets(name: string, config: FerryConfig, platform?: string): string[] {
  const { pipeline } = splitPipelineName(name);
  const found = readPipelineFile(pipeline, config);
  if (platform !== undefined) {
    return [pipelineOnPlatform(pipeline, platformToRun(`${pipeline}@${platform}`, found))];
  }
  if (name.includes('@')) return [pipelineOnPlatform(pipeline, platformToRun(name, found))];
  return found.platforms.map((p) => pipelineOnPlatform(pipeline, p));
}

/**
 * The one pipeline a name means: itself where it is one of its file's names on a platform
 * (`catalog` on default beside `catalog@north`), else the file's only one; undefined for a
 * fan-out's name that is none of them (`catalog` of `platforms: [north, south]`).
 */
export function pipelineTarget(name: string, config: FerryConfig): string | undefined {
  const targets = pipelineTargets(name, config);
  if (targets.includes(name)) return name;
  return targets.length === 1 ? targets[0] : undefined;
}

/**
 * The names a pipeline file runs under, for what lists pipelines: a file whose platforms cannot be
 * read counts once, under its own name on `default`, so that its problem is shown.
 */
export function listedTargets(file: string, config: FerryConfig): string[] {
  try {
    return pipelineTargets(file, config);
  } catch (error) {
    if (error instanceof FerryError) return [file];
    throw error;
  }
}

/** Every name the pipelines run under, file by file (`catalog`, `catalog@north`...). */
export function allPipelineTargets(config: FerryConfig): string[] {
  return pipelineNames(config).flatMap((file) => listedTargets(file, config));
}

/**
 * Either kind, chosen by the file's `direction`: for what lists or schedules every pipeline.
 * `name` may name the platform (`catalog@north`); the definition is compiled with that platform's
 * config (its listing, description and bindings) and its overrides.
 */
export function loadAnyPipeline(name: string, config: FerryConfig): AnyPipeline {
  const base = splitPipelineName(name).pipeline;
  const found = readPipelineFile(base, config);
  const platform = platformToRun(name, found);
  const scoped = platformConfig(config, platform);
  const { mtimeMs, size } = statSync(found.path);
  const cacheKey = `${found.path}\0${platform}`;
  const known = compiled.get(scoped)?.get(cacheKey);
  if (known && known.mtimeMs === mtimeMs && known.size === size) return known.pipeline;
  const pipeline = compileAny(pipelineOnPlatform(base, platform), found.shown, found.raw, scoped);
  if (!compiled.has(scoped)) compiled.set(scoped, new Map());
  compiled.get(scoped)!.set(cacheKey, { mtimeMs, size, pipeline });
  return pipeline;
}

/** An import pipeline; an export pipeline's file is refused, saying which command runs it. */
export function loadPipeline(name: string, config: FerryConfig): PipelineDefinition {
  const loaded = loadAnyPipeline(name, config);
  if (loaded.direction === 'import') return loaded.definition;
  throw new ConfigError(loaded.definition.file, [
    {
      path: 'direction',
      message: `an export pipeline: \`ferry export ${name}\` runs it (this takes an import pipeline)`,
    },
  ]);
}

/** An export pipeline (`direction: export`); an import pipeline's file is refused. */
export function loadExportPipeline(name: string, config: FerryConfig): ExportDefinition {
  const loaded = loadAnyPipeline(name, config);
  if (loaded.direction === 'export') return loaded.definition;
  throw new ConfigError(loaded.definition.file, [
    {
      path: 'direction',
      message: `an import pipeline (no direction: export): \`ferry run ${name}\` runs it`,
    },
  ]);
}

/**
 * Definitions compiled for a config, by file, while the file is unchanged: a long-running process
 * (the console lists every pipeline on each page; a worker's schedule ticks) compiles a file once,
 * not on each read. A definition is shared: callers never change it.
 */
const compiled = new WeakMap<
  FerryConfig,
  Map<string, { mtimeMs: number; size: number; pipeline: AnyPipeline }>
>();
