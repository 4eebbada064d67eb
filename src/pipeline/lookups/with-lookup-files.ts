/**
 * A pipeline ready to plan: its file lookups read (load-lookup-files.ts) and the pipeline compiled
 * with their tables. `overrides` (`--lookup NAME=PATH`) read another file for one run.
 */
import { UsageError } from '../../errors/index.js';
import type { PipelineDefinition } from '../definition/definition-types.js';
import { loadLookupFiles } from './load-lookup-files.js';

export async function withLookupFiles(
  definition: PipelineDefinition,
  overrides: Readonly<Record<string, string>> = {},
  signal?: AbortSignal,
): Promise<PipelineDefinition> {
  const names = Object.keys(definition.fileLookups);
  for (const name of Object.keys(overrides)) {
    if (!names.includes(name)) {
      throw new UsageError(
        `--lookup ${name}=...: pipeline "${definition.name}" has no lookup "${name}" read from a ` +
          `file (${names.length > 0 ? `its file lookups: ${names.join(', ')}` : 'it has none'}).`,
      );
    }
  }
  if (names.length === 0) return definition;
  const tables = await loadLookupFiles(definition.fileLookups, {
    pipelineFile: definition.file,
    baseDir: definition.baseDir,
    overrides,
    ...(signal ? { signal } : {}),
  });
  return definition.withLookupTables(tables);
}
