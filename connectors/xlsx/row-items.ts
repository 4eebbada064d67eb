/** Raw sheet rows -> header and ReadItems: cell values formatted, columns named by the header. */
import type { ReadItem } from '../types.js';
import { isOversized, oversizedMessage, type Oversized } from '../bounded-text.js';
import { headerName } from '../header-name.js';
import { ConnectorError } from '../errors.js';
import type { InvisibleMode } from '../text/invisible-chars.js';
import { columnLetters, numberText, serialToIso } from './cell-value.js';
import type { RawCell, RawRow } from './sheet-rows.js';

export interface CellContext {
  strings: (string | Oversized)[];
  /** The xlsx option: a text over it is an error for its row. */
  maxFieldBytes: number;
  dateStyles: boolean[];
  date1904: boolean;
}

type CellText = { value: string } | { error: string };

function oversizedText(what: string, size: Oversized, ctx: CellContext): CellText {
  return { error: oversizedMessage(what, size, 'xlsx', 'maxFieldBytes', ctx.maxFieldBytes) };
}

export function cellText(cell: RawCell, ctx: CellContext): CellText {
  const raw = cell.value;
  if (isOversized(raw)) return oversizedText('holds a text that', raw, ctx);
  switch (cell.type) {
    case 's': {
      const text = ctx.strings[Number(raw)];
      if (text === undefined)
        return { error: `refers to shared string ${raw}, which the workbook does not have` };
      if (isOversized(text))
        return oversizedText(`refers to shared string ${raw}, which`, text, ctx);
      return { value: text };
    }
    case 'str':
    case 'inlineStr':
    case 'd':
      return { value: raw };
    case 'b':
      return { value: raw === '1' ? 'true' : 'false' };
    case 'e':
      return { error: `holds the spreadsheet error ${raw}` };
    default:
      if (raw === '') return { value: '' };
      if (ctx.dateStyles[cell.style]) return { value: serialToIso(Number(raw), ctx.date1904) };
      return { value: numberText(raw) };
  }
}

/** Column index -> name; columns without a name are left out. */
export type Header = Map<number, string>;

export function makeHeader(
  row: RawRow,
  ctx: CellContext,
  file: string,
  invisible: InvisibleMode,
): Header {
  const header: Header = new Map();
  const byName = new Map<string, number>();
  for (const cell of row.cells) {
    const text = cellText(cell, ctx);
    const at = { line: row.number, at: `cell ${columnLetters(cell.col)}${row.number}` };
    const name = 'value' in text ? headerName(text.value, invisible, file, at) : '';
    if (name === '') continue;
    const earlier = byName.get(name);
    if (earlier !== undefined || name === '__proto__') {
      throw new ConnectorError(
        `${file}: the header (row ${row.number}) names two columns "${name}" (${columnLetters(earlier ?? cell.col)} and ${columnLetters(cell.col)}): column names must be unique.`,
        { file, line: row.number },
      );
    }
    byName.set(name, cell.col);
    header.set(cell.col, name);
  }
  return header;
}

/** A row whose every cell reads as blank text (an error cell is not blank). */
export function isEmptyRow(row: RawRow, ctx: CellContext): boolean {
  return row.cells.every((cell) => {
    const text = cellText(cell, ctx);
    return 'value' in text && text.value.trim() === '';
  });
}

export function rowItem(row: RawRow, header: Header, ctx: CellContext, file: string): ReadItem {
  const fields: Record<string, string> = {};
  for (const name of header.values()) fields[name] = '';
  const line = row.number;
  for (const cell of row.cells) {
    const text = cellText(cell, ctx);
    const name = header.get(cell.col);
    const ref = `${columnLetters(cell.col)}${row.number}`;
    if ('error' in text) {
      return {
        error: {
          file,
          line,
          ...(name ? { field: name } : {}),
          message: `cell ${ref} ${text.error}`,
        },
      };
    }
    if (name !== undefined) fields[name] = text.value;
    else if (text.value.trim() !== '') {
      return {
        error: {
          file,
          line,
          message: `cell ${ref} has a value but column ${columnLetters(cell.col)} has no header`,
        },
      };
    }
  }
  return { record: { fields, source: { file, line } } };
}
