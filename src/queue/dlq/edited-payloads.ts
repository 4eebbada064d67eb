/**
 * Edited payloads for `ferry dlq replay --payloads FILE`, by item key. The file is one of:
 * - a JSON object {"<key>": <payload>, ...};
 * - a JSON array [{"key": "<key>", "payload": <payload>, "operationId"?: "<id>"}, ...];
 * - NDJSON, one such {"key", "payload", "operationId"?} object a line.
 * `operationId` narrows an edit to one operation (a product and its prices share a key).
 * A line or element that is not of this shape is an error naming the file and the line (element).
 * Numbers keep their digits (base/exact-json): an amount typed with 20 of them is sent with 20.
 */
import { readFileSync } from 'node:fs';
import { parseExact } from '../../base/index.js';
import { UsageError } from '../../errors/index.js';

export interface PayloadEdit {
  key: string;
  payload: unknown;
  operationId?: string;
}

export class EditedPayloads {
  constructor(private readonly edits: readonly PayloadEdit[]) {}

  get size(): number {
    return this.edits.length;
  }

  /** The edited payload of this item, if the file has one. */
  find(operationId: string, key: string): PayloadEdit | undefined {
    return (
      this.edits.find((e) => e.key === key && e.operationId === operationId) ??
      this.edits.find((e) => e.key === key && e.operationId === undefined)
    );
  }
}

/** `where`: `file:line` or `file, element n`. */
function edit(value: unknown, where: string): PayloadEdit {
  const v = value as { key?: unknown; payload?: unknown; operationId?: unknown } | null;
  if (!v || typeof v !== 'object' || typeof v.key !== 'string' || !('payload' in v)) {
    throw new UsageError(
      `${where}: expected {"key": "<item key>", "payload": {...}} (and optionally "operationId").`,
    );
  }
  if (v.operationId !== undefined && typeof v.operationId !== 'string') {
    throw new UsageError(`${where}: "operationId" must be a string.`);
  }
  const out: PayloadEdit = { key: v.key, payload: v.payload };
  if (typeof v.operationId === 'string') out.operationId = v.operationId;
  return out;
}

export function parseEditedPayloads(text: string, file: string): EditedPayloads {
  const trimmed = text.trim();
  if (trimmed === '') return new EditedPayloads([]);
  let whole: unknown;
  let wholeError: Error | undefined;
  try {
    whole = parseExact(trimmed);
  } catch (error) {
    wholeError = error as Error;
  }
  if (wholeError === undefined) {
    if (Array.isArray(whole)) {
      return new EditedPayloads(whole.map((v, i) => edit(v, `${file}, element ${i + 1}`)));
    }
    if (whole && typeof whole === 'object') {
      const v = whole as Record<string, unknown>;
      // A single NDJSON-style line is an object with key and payload.
      if (typeof v.key === 'string' && 'payload' in v)
        return new EditedPayloads([edit(v, `${file}:1`)]);
      return new EditedPayloads(Object.entries(v).map(([key, payload]) => ({ key, payload })));
    }
    throw new UsageError(`${file}: expected a JSON object of payloads by key, an array or NDJSON.`);
  }
  const edits: PayloadEdit[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    let value: unknown;
    try {
      value = parseExact(line);
    } catch (error) {
      throw new UsageError(`${file}:${i + 1}: not JSON (${(error as Error).message}).`);
    }
    edits.push(edit(value, `${file}:${i + 1}`));
  });
  return new EditedPayloads(edits);
}

export function readEditedPayloads(file: string): EditedPayloads {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--payloads ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  return parseEditedPayloads(text, file);
}
