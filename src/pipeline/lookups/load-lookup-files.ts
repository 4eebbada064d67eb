/**
 * Reads a pipeline's file lookups before a plan (docs/PIPELINES.md, Lookups from files): each file
 * once, however many lookups use it, through the connectors like any source. A lookup's table maps
 * its `key` column to its `value` column among the records whose columns equal `where`. Anything
 * that would make a lookup wrong stops the plan before a record is mapped: a missing file or
 * column, a key that repeats (naming both lines), records the connector could not read.
 */
import { createHash } from 'node:crypto';
import { readSource, SourceNotFoundError } from '../../../connectors/index.js';
import type { FileLookupSpec } from '../definition/pipeline-schema.js';
import { displayPath } from '../display-path.js';
import { LookupFileError } from '../errors.js';
import { rowErrorText } from '../row-error-text.js';
import { localPath } from '../source/read-records.js';
import type { RowError } from '../../base/index.js';
import type { LookupTable } from './lookup-table.js';

export interface LookupFilesContext {
  /** The pipeline file, for messages. */
  pipelineFile: string;
  /** Where relative paths are tried after the working directory. */
  baseDir: string;
  /** Lookup name -> a file to read instead for this run (`--lookup NAME=PATH`). */
  overrides?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

/** Records the connector could not read that a lookup error lists. */
const ERRORS_SHOWN = 5;

interface Building {
  name: string;
  spec: FileLookupSpec;
  where: [string, string][];
  map: Map<string, string>;
  /** Line of each key, while reading: a repeated key names both lines. */
  lines: Map<string, number>;
  digest: ReturnType<typeof createHash>;
}

function pathOf(name: string, spec: FileLookupSpec, ctx: LookupFilesContext): string {
  const override = ctx.overrides?.[name];
  return override ?? localPath(spec.file, ctx.baseDir);
}

/** Lookups grouped by the file they read (same path, connector and options: read once). */
function groupByFile(
  specs: Readonly<Record<string, FileLookupSpec>>,
  ctx: LookupFilesContext,
): Map<string, { path: string; spec: FileLookupSpec; lookups: Building[] }> {
  const groups = new Map<string, { path: string; spec: FileLookupSpec; lookups: Building[] }>();
  for (const [name, spec] of Object.entries(specs)) {
    const path = pathOf(name, spec, ctx);
    const id = JSON.stringify([path, spec.connector ?? null, spec.options]);
    const group = groups.get(id) ?? { path, spec, lookups: [] };
    group.lookups.push({
      name,
      spec,
      where: Object.entries(spec.where ?? {}),
      map: new Map(),
      lines: new Map(),
      digest: createHash('sha1'),
    });
    groups.set(id, group);
  }
  return groups;
}

function checkColumns(l: Building, fields: Record<string, string>, file: string, pipeline: string) {
  const needed = [l.spec.key, l.spec.value, ...l.where.map(([column]) => column)];
  const missing = needed.filter((column) => !(column in fields));
  if (missing.length === 0) return;
  throw new LookupFileError(
    `Lookup "${l.name}" (lookups.${l.name} in ${pipeline}) reads the column${missing.length > 1 ? 's' : ''} ` +
      `${missing.map((c) => `"${c}"`).join(', ')}, which ${displayPath(file)} does not have ` +
      `(its columns: ${Object.keys(fields).join(', ')}).`,
    { lookup: l.name, file, missing },
    2,
  );
}

function add(l: Building, fields: Record<string, string>, file: string, line: number): void {
  for (const [column, value] of l.where) if (fields[column] !== value) return;
  const key = fields[l.spec.key]!;
  const earlier = l.lines.get(key);
  if (earlier !== undefined) {
    const where =
      l.where.length > 0
        ? `, among the records where ${l.where.map(([c, v]) => `${c} = ${v}`).join(' and ')}`
        : '';
    throw new LookupFileError(
      `Lookup "${l.name}": the key "${key}" (column ${l.spec.key}) is on line ${earlier} and line ` +
        `${line} of ${displayPath(file)}${where}: a lookup's keys must be unique. Correct the file, ` +
        'or narrow the lookup with `where`.',
      { lookup: l.name, file, key, lines: [earlier, line] },
      1,
    );
  }
  const value = fields[l.spec.value]!;
  l.lines.set(key, line);
  l.map.set(key, value);
  l.digest.update(`${key}\u0000${value}\u0001`);
}

async function readGroup(
  group: { path: string; spec: FileLookupSpec; lookups: Building[] },
  ctx: LookupFilesContext,
): Promise<void> {
  const first = group.lookups[0]!;
  const { items } = readSource({ file: group.path }, group.spec.connector, group.spec.options, {
    optionsPath: `lookups.${first.name}.options`,
    optionsSource: ctx.pipelineFile,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  const errors: RowError[] = [];
  let checked = false;
  try {
    for await (const item of items) {
      if ('error' in item) {
        errors.push(item.error);
        continue;
      }
      const { fields, source } = item.record;
      if (!checked) {
        for (const l of group.lookups) checkColumns(l, fields, group.path, ctx.pipelineFile);
        checked = true;
      }
      for (const l of group.lookups) add(l, fields, group.path, source.line);
    }
  } catch (error) {
    if (!(error instanceof SourceNotFoundError)) throw error;
    const names = group.lookups.map((l) => `"${l.name}"`).join(', ');
    throw new LookupFileError(
      `Lookup ${names} (lookups.${first.name}.file in ${ctx.pipelineFile}) cannot be read: ` +
        `${error.message} Nothing was sent.`,
      { lookup: first.name, file: group.path },
      2,
    );
  }
  if (errors.length > 0) {
    throw new LookupFileError(
      `Lookup ${group.lookups.map((l) => `"${l.name}"`).join(', ')}: ${errors.length} record` +
        `${errors.length > 1 ? 's' : ''} of ${displayPath(group.path)} could not be read, so the ` +
        'table would be incomplete. Nothing was sent. First:\n' +
        errors
          .slice(0, ERRORS_SHOWN)
          .map((e) => `  ${rowErrorText(e, displayPath(e.file))}`)
          .join('\n'),
      { file: group.path, errors: errors.length },
      1,
    );
  }
}

/** Reads every file lookup of `specs`; resolves to name -> table. */
export async function loadLookupFiles(
  specs: Readonly<Record<string, FileLookupSpec>>,
  ctx: LookupFilesContext,
): Promise<Record<string, LookupTable>> {
  const tables: Record<string, LookupTable> = {};
  for (const group of groupByFile(specs, ctx).values()) {
    await readGroup(group, ctx);
    const file = displayPath(group.path);
    for (const l of group.lookups) {
      tables[l.name] = {
        map: l.map,
        label: `lookup ${l.name} (${file})`,
        inline: false,
        identity: { ...l.spec, digest: l.digest.digest('base64url') },
      };
    }
  }
  return tables;
}
