/**
 * The CSV of differences: one row per entity that drifted (resource, key, kind, the fields that
 * differ, the platform's values and the ERP's), written as found (never held whole), under a
 * temporary name and renamed when complete. It also keeps the first rows of each kind as samples.
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync, renameSync, rmSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { csvCell } from '../base/index.js';
import type { DriftKind, DriftRow } from './drift-entry.js';

export const SAMPLES_PER_KIND = 10;

const HEADER = ['resource', 'key', 'kind', 'fields', 'platform', 'erp'];

export interface DriftSample {
  resource: string;
  key: string;
  kind: DriftKind;
  fields?: string[];
}

export class DriftReport {
  private stream: WriteStream | undefined;
  private readonly kept: Record<DriftKind, DriftSample[]> = {
    missing: [],
    different: [],
    unknown: [],
  };
  rows = 0;

  constructor(readonly path: string) {}

  async add(row: DriftRow): Promise<void> {
    this.rows += 1;
    const list = this.kept[row.kind];
    if (list.length < SAMPLES_PER_KIND) {
      const sample: DriftSample = { resource: row.resource, key: row.key, kind: row.kind };
      if (row.fields) sample.fields = row.fields;
      list.push(sample);
    }
    const line = [
      row.resource,
      row.key,
      row.kind,
      row.fields?.join(' '),
      row.platform && JSON.stringify(row.platform),
      row.erp && JSON.stringify(row.erp),
    ]
      .map(csvCell)
      .join(',');
    const stream = this.open();
    if (!stream.write(`${line}\r\n`)) await once(stream, 'drain');
  }

  /** Up to SAMPLES_PER_KIND of each kind: missing, then different, then unknown. */
  samples(): DriftSample[] {
    return [...this.kept.missing, ...this.kept.different, ...this.kept.unknown];
  }

  /** Completes the file (renamed into place); returns its path, or undefined when no row. */
  async close(): Promise<string | undefined> {
    const stream = this.stream;
    if (!stream) return undefined;
    stream.end();
    await once(stream, 'finish');
    renameSync(`${this.path}.part`, this.path);
    return this.path;
  }

  /** Removes a file left incomplete (the command failed). */
  discard(): void {
    if (!this.stream) return;
    this.stream.destroy();
    rmSync(`${this.path}.part`, { force: true });
  }

  private open(): WriteStream {
    if (this.stream) return this.stream;
    mkdirSync(dirname(this.path), { recursive: true });
    this.stream = createWriteStream(`${this.path}.part`);
    this.stream.write(`${HEADER.join(',')}\r\n`);
    return this.stream;
  }
}
