/**
 * JSON (one array of row objects) and NDJSON (one object a line), UTF-8. A row's object has every
 * field, null where it has no value; integers and booleans are JSON's own, decimals stay strings
 * with a point (money never goes through a float), dates are written in the target's format.
 */
import type { Cell } from '../item-rows.js';
import type { RowWriter } from './row-writer.js';

function jsonValue(cell: Cell): unknown {
  if (cell === null) return null;
  if (cell.type === 'boolean') return cell.text === 'true';
  if (cell.type === 'integer') {
    const n = Number(cell.text);
    return Number.isSafeInteger(n) ? n : cell.text;
  }
  return cell.text;
}

function objectOf(names: readonly string[], cells: readonly Cell[]): string {
  const row: Record<string, unknown> = {};
  names.forEach((name, i) => {
    row[name] = jsonValue(cells[i] ?? null);
  });
  return JSON.stringify(row);
}

export function jsonWriter(names: readonly string[]): RowWriter {
  let rows = 0;
  return {
    start: () => Buffer.from('['),
    row(cells) {
      const text = `${rows === 0 ? '\n' : ',\n'}${objectOf(names, cells)}`;
      rows += 1;
      return Buffer.from(text, 'utf8');
    },
    end: () => Buffer.from(rows === 0 ? ']\n' : '\n]\n'),
  };
}

export function ndjsonWriter(names: readonly string[]): RowWriter {
  return {
    start: () => Buffer.alloc(0),
    row: (cells) => Buffer.from(`${objectOf(names, cells)}\n`, 'utf8'),
    end: () => Buffer.alloc(0),
  };
}
