/** One entity that drifted, as kept in a reconciliation's drift hash (key -> this, as JSON). */
export type DriftKind = 'missing' | 'different' | 'unknown';

export interface DriftEntry {
  kind: DriftKind;
  /** The platform's item, projected on the pipeline's fields (different, unknown). */
  item?: Record<string, unknown>;
  /** Its content hash (different, unknown). */
  hash?: string;
  /** Different: the fields that differ, when known. */
  fields?: string[];
  /** Different: what the source says of those fields, when it was read. */
  erp?: Record<string, unknown>;
}

/** One line of the report (CSV) and, for the first few of each kind, a sample. */
export interface DriftRow {
  resource: string;
  key: string;
  kind: DriftKind;
  fields?: string[];
  platform?: Record<string, unknown>;
  erp?: Record<string, unknown>;
}

export function parseEntry(text: string): DriftEntry {
  return JSON.parse(text) as DriftEntry;
}
