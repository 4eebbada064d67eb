/** A loaded export pipeline (`direction: export`), compiled and checked (compile-export.ts). */
import type { DateWriter } from '../convert/format-date.js';
import type { FieldFn } from '../mapping/field-types.js';
import type { ExportFieldType, ExportPipelineFile, ExportTargetFile } from './export-schema.js';
import type { FilePart } from './file-pattern.js';
import type { Schedule } from './schedule-schema.js';

export interface ExportField {
  /** The column (CSV, XLSX) or key (JSON) it is written under. */
  name: string;
  type: ExportFieldType;
  /** Reads the row's flattened item (paths -> text): a value, or ABSENT. */
  value: FieldFn;
  /** date and datetime: the ISO value in the field's (or the target's) format. */
  writeDate?: DateWriter;
}

export interface ExportDefinition {
  direction: 'export';
  name: string;
  description?: string;
  /** The pipeline file, as shown in messages. */
  file: string;
  schedule: Schedule | undefined;
  read: ExportPipelineFile['read'];
  /** The item's array that gives one row per element, when rows are exploded. */
  explode: string | undefined;
  fields: ExportField[];
  /** The item paths the fields read; undefined when custom code may read any (compute). */
  paths: string[] | undefined;
  target: ExportTargetFile & { fileParts: FilePart[] };
}
