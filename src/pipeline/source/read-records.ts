/**
 * The pipeline's side of reading: which source (the pipeline's own, or the one given for this
 * run), through its connector with its options. The connectors do the reading.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import {
  readSource,
  type ReadSourceResult,
  type SourceSpec,
  getConnector,
  validateConnectorOptions,
} from '../../../connectors/index.js';
import { isFerryError, UsageError, type ConfigIssue, ConfigError } from '../../errors/index.js';
import type { PipelineDefinition } from '../definition/definition-types.js';
import type { SourceFile } from '../definition/pipeline-schema.js';

export type { SourceSpec } from '../../../connectors/index.js';

/** Config issues of a pipeline's source: an unknown connector, options it does not declare. */
export function checkSourceOptions(source: SourceFile): ConfigIssue[] {
  if (source.connector === undefined) return [];
  try {
    validateConnectorOptions(getConnector(source.connector), source.options, 'source.options');
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    if (isFerryError(error)) return [{ path: 'source.connector', message: error.message }];
    throw error;
  }
}

/** A relative path: from the working directory when it is there, else from the project root. */
export function localPath(path: string, baseDir: string): string {
  if (isAbsolute(path)) return path;
  const here = resolve(path);
  return existsSync(here) ? here : resolve(baseDir, path);
}

/** The source of a run: the override (e.g. `--file`), else the pipeline's own. */
export function sourceSpecOf(definition: PipelineDefinition, override?: SourceSpec): SourceSpec {
  if (override) return override;
  const s = definition.source;
  // Records and messages name the file as the pipeline file writes it, not the server's path.
  if (s.file) return { file: localPath(s.file, definition.baseDir), name: s.file };
  if (s.folder) {
    const folder = localPath(s.folder, definition.baseDir);
    return s.pattern ? { folder, pattern: s.pattern, name: s.folder } : { folder, name: s.folder };
  }
  if (s.url) return { url: s.url };
  if (s.sftp) return { sftp: s.sftp };
  if (s.s3) return { s3: s.s3 };
  throw new UsageError(
    `Pipeline "${definition.name}" (${definition.file}) names no source: give one with --file.`,
  );
}

/** The run's file as an operator knows it (see sourceSpecOf), or undefined for other sources. */
export function sourceFileName(
  definition: PipelineDefinition,
  override?: SourceSpec,
): string | undefined {
  const spec = sourceSpecOf(definition, override);
  return 'file' in spec ? (spec.name ?? spec.file) : undefined;
}

export function readRecords(
  definition: PipelineDefinition,
  override?: SourceSpec,
  signal?: AbortSignal,
): ReadSourceResult {
  return readSource(
    sourceSpecOf(definition, override),
    definition.source.connector,
    definition.source.options,
    {
      optionsPath: 'source.options',
      optionsSource: definition.file,
      emptyInput: definition.mode === 'changes' ? 'allow' : 'error',
      ...(signal ? { signal } : {}),
    },
  );
}
