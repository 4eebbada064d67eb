/** A worksheet part streamed as rows of raw cells (values as stored, before any formatting). */
import { appendBounded, checkedSize, type Oversized } from '../bounded-text.js';
import { columnIndex } from './cell-value.js';
import { local, parsePart } from './sax-part.js';
import type { ZipArchive } from './zip.js';

export interface RawCell {
  /** 0-based column. */
  col: number;
  /** `t`: s (shared string), str, inlineStr, b, e, d, or n (the default). */
  type: string;
  /** Index of the cell's style, for date formats. */
  style: number;
  /** Its text; its size alone when over maxFieldBytes (the text was not kept). */
  value: string | Oversized;
}

export interface RawRow {
  /** 1-based row number, as the spreadsheet shows it. */
  number: number;
  cells: RawCell[];
}

/** Yields batches of rows as the part streams in. */
export function sheetRows(zip: ZipArchive, part: string): AsyncGenerator<RawRow[]> {
  let batch: RawRow[] = [];
  let row: RawRow | undefined;
  let cell: RawCell | undefined;
  let lastRow = 0;
  let capture = false;
  let inInline = false;
  let phonetic = 0;
  const { maxFieldBytes } = zip.limits;
  return parsePart(
    zip,
    part,
    (p) => {
      p.on('opentag', (tag) => {
        const name = local(tag.name);
        if (name === 'row') {
          lastRow = tag.attributes.r ? Number(tag.attributes.r) : lastRow + 1;
          row = { number: lastRow, cells: [] };
        } else if (name === 'c' && row) {
          const ref = tag.attributes.r;
          const previous = row.cells[row.cells.length - 1];
          cell = {
            col: ref ? columnIndex(ref) : previous ? previous.col + 1 : 0,
            type: tag.attributes.t ?? 'n',
            style: Number(tag.attributes.s ?? 0),
            value: '',
          };
        } else if (name === 'v') capture = true;
        else if (name === 'is') inInline = true;
        else if (name === 'rPh') phonetic++;
        else if (name === 't' && inInline && phonetic === 0) capture = true;
      });
      const onText = (text: string): void => {
        if (capture && cell) cell.value = appendBounded(cell.value, text, maxFieldBytes);
      };
      p.on('text', onText);
      p.on('cdata', onText);
      p.on('closetag', (tag) => {
        const name = local(tag.name);
        if (name === 'v' || name === 't') capture = false;
        else if (name === 'is') inInline = false;
        else if (name === 'rPh') phonetic--;
        else if (name === 'c' && cell && row) {
          cell.value = checkedSize(cell.value, maxFieldBytes);
          row.cells.push(cell);
          cell = undefined;
        } else if (name === 'row' && row) {
          batch.push(row);
          row = undefined;
        }
      });
    },
    () => {
      if (batch.length === 0) return undefined;
      const out = batch;
      batch = [];
      return out;
    },
  );
}
