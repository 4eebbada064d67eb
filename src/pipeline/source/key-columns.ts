/**
 * A file without the column an entity's key is read from cannot give a single key: one error for
 * the file instead of a "required (it is the key), but empty" per record.
 */
import { closestName } from '../../base/index.js';
import type { ReadMeta } from '../../../connectors/index.js';
import type { PipelineDefinition } from '../definition/definition-types.js';
import { MissingKeyColumnError } from '../errors.js';

/** Columns shown in the message: a header of hundreds is cut short. */
const SHOWN_COLUMNS = 30;

function listed(header: readonly string[]): string {
  const shown = header.slice(0, SHOWN_COLUMNS).join(', ');
  return header.length > SHOWN_COLUMNS ? `${shown}... (${header.length} in all)` : shown;
}

/**
 * Throws when the input being read has a header (csv, xlsx) that lacks the key column of an
 * entity mapped from every record (no `when`). Formats without a header (json, xml) name their
 * fields record by record: a record without the key is rejected on its own.
 */
export function checkKeyColumns(definition: PipelineDefinition, meta: ReadMeta): void {
  const header = meta.header;
  if (!Array.isArray(header) || header.length === 0) return;
  for (const entity of definition.entities) {
    const { keyColumn, when } = entity.mapping;
    if (keyColumn === undefined || when !== undefined || header.includes(keyColumn)) continue;
    const file = typeof meta.source === 'string' ? meta.source : 'the input';
    const closest = closestName(keyColumn, header);
    throw new MissingKeyColumnError(
      `${file}: column ${keyColumn} missing (it is the key of ${entity.name}); the columns found ` +
        `are ${listed(header)}.` +
        (closest === undefined ? '' : ` The closest name is "${closest}".`) +
        ' Nothing was planned.',
      { file, field: keyColumn, columns: header, ...(closest ? { closest } : {}) },
    );
  }
}
