/**
 * Compiles an export pipeline file: its read operation checked against the configured listing
 * (by name, as imports' operations are), each field compiled with the import's field compiler
 * (a column is a path of the item), the target's formats, time zone and file name checked.
 * Every problem is found here, before a page is read.
 */
import type { FerryConfig } from '../../config/index.js';
import { ConfigError, type ConfigIssue } from '../../errors/index.js';
import { resolveOperation } from '../../interface/index.js';
import { checkTimeZone, compileDateWriter } from '../convert/format-date.js';
import { inlineTable } from '../lookups/lookup-table.js';
import { compileField } from '../mapping/compile-field.js';
import { columnsRead } from '../mapping/entity-inputs.js';
import type { CompileContext } from '../mapping/field-types.js';
import type { FieldSpec } from './field-schema.js';
import type { ExportFieldFile, ExportPipelineFile } from './export-schema.js';
import type { ExportDefinition, ExportField } from './export-types.js';
import { parseFilePattern, type FilePart } from './file-pattern.js';

/** The import's field spec that gives this export field's value (before the target writes it). */
function fieldSpecOf(spec: ExportFieldFile): FieldSpec {
  const { type, scale, round, ...rest } = spec;
  const base: FieldSpec = { ...rest };
  delete (base as { format?: string }).format; // the target writes dates; the value stays ISO
  if (type === 'integer' || type === 'boolean') base.type = type;
  if (type === 'decimal') {
    // The platform writes decimals with a point and no grouping.
    Object.assign(base, { type, decimalSeparator: '.', groupSeparators: [] });
    if (scale !== undefined) base.scale = scale;
    if (round !== undefined) base.round = round;
  }
  return base;
}

function compileFields(parsed: ExportPipelineFile, ctx: CompileContext): ExportField[] {
  const { target } = parsed;
  return Object.entries(parsed.fields).map(([name, spec]) => {
    const path = `fields.${name}`;
    const field: ExportField = {
      name,
      type: spec.type,
      value: compileField(fieldSpecOf(spec), path, ctx),
    };
    if (spec.type === 'date' || spec.type === 'datetime') {
      const format =
        spec.format ?? (spec.type === 'date' ? target.dateFormat : target.dateTimeFormat);
      try {
        field.writeDate = compileDateWriter(format, target.timeZone);
      } catch (error) {
        ctx.issues.push({ path: `${path}.format`, message: (error as Error).message });
      }
    }
    return field;
  });
}

function checkTarget(parsed: ExportPipelineFile, issues: ConfigIssue[]): FilePart[] {
  const { target } = parsed;
  const check = (path: string, fn: () => void): void => {
    try {
      fn();
    } catch (error) {
      issues.push({ path, message: (error as Error).message });
    }
  };
  check('target.timeZone', () => checkTimeZone(target.timeZone));
  check('target.dateFormat', () => compileDateWriter(target.dateFormat, 'UTC'));
  check('target.dateTimeFormat', () => compileDateWriter(target.dateTimeFormat, 'UTC'));
  let parts: FilePart[] = [];
  check('target.file', () => {
    parts = parseFilePattern(target.file);
  });
  if (target.format === 'csv' && target.csv.delimiter === target.decimalSeparator) {
    issues.push({
      path: 'target.decimalSeparator',
      message: `the CSV delimiter is "${target.csv.delimiter}" too: choose another (a decimal comma goes with ';')`,
    });
  }
  if (target.csv.bom && target.csv.encoding !== 'utf-8') {
    issues.push({ path: 'target.csv.bom', message: 'a byte-order mark goes with utf-8' });
  }
  return parts;
}

/** Compiles a parsed export pipeline file; `file` is the path shown in messages. */
export function compileExport(
  name: string,
  file: string,
  parsed: ExportPipelineFile,
  config: FerryConfig,
): ExportDefinition {
  // An operation outside the listing fails by name (exit 2), as an import's does.
  resolveOperation(parsed.read.operation, config.interface.listing);
  const lookups = Object.fromEntries(
    Object.entries(parsed.lookups).map(([lookup, table]) => [lookup, inlineTable(lookup, table)]),
  );
  const ctx: CompileContext = { lookups, issues: [] };
  const fields = compileFields(parsed, ctx);
  const fileParts = checkTarget(parsed, ctx.issues);
  if (parsed.schedule?.pickup) {
    ctx.issues.push({
      path: 'schedule.pickup',
      message: 'pickup takes files out of a source folder: an export has no source',
    });
  }
  if (ctx.issues.length > 0) throw new ConfigError(file, ctx.issues);
  return {
    direction: 'export',
    name,
    ...(parsed.description ? { description: parsed.description } : {}),
    file,
    schedule: parsed.schedule,
    read: parsed.read,
    explode: parsed.explode,
    fields,
    paths: columnsRead(Object.values(parsed.fields).map(fieldSpecOf)),
    target: { ...parsed.target, fileParts },
  };
}
