/**
 * A minimal XLSX workbook, written as a stream: one sheet whose rows are deflated as they come
 * (each ~64 KiB of sheet XML compressed on its own and flushed, the pieces one valid deflate
 * stream), the zip's sizes and CRC in a data descriptor and the central directory at the end.
 * Strings are inline (no shared-strings table to hold), integers and decimals numbers, booleans
 * booleans, dates the target's formatted text. Every entry carries the same fixed timestamp, so
 * the same rows give the same bytes (and checksum) whenever they are written.
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { RowProblem, type Cell } from '../item-rows.js';
import type { RowWriter } from './row-writer.js';

const FLUSH_BYTES = 64 * 1024;
const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01, the zip format's first day
const SHEET = 'xl/worksheets/sheet1.xml';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const FIXED_PARTS: [string, string][] = [
  [
    '[Content_Types].xml',
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '</Types>',
  ],
  [
    '_rels/.rels',
    `${XML}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" ` +
      `Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ],
  [
    'xl/workbook.xml',
    `${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>` +
      '<sheet name="Export" sheetId="1" r:id="rId1"/></sheets></workbook>',
  ],
  [
    'xl/_rels/workbook.xml.rels',
    `${XML}<Relationships xmlns="${PKG_REL}">` +
      `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
  ],
  [
    'xl/styles.xml',
    `${XML}<styleSheet xmlns="${MAIN}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>` +
      '<fills count="1"><fill><patternFill patternType="none"/></fill></fills>' +
      '<borders count="1"><border/></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>' +
      '</styleSheet>',
  ],
];

interface EntryRecord {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  streamed: boolean;
}

function localHeader(e: EntryRecord): Buffer {
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(e.streamed ? 0x0008 : 0, 6);
  h.writeUInt16LE(8, 8);
  h.writeUInt16LE(0, 10);
  h.writeUInt16LE(DOS_DATE, 12);
  h.writeUInt32LE(e.streamed ? 0 : e.crc, 14);
  h.writeUInt32LE(e.streamed ? 0 : e.compressed, 18);
  h.writeUInt32LE(e.streamed ? 0 : e.size, 22);
  h.writeUInt16LE(e.name.length, 26);
  h.writeUInt16LE(0, 28);
  return Buffer.concat([h, e.name]);
}

function centralHeader(e: EntryRecord): Buffer {
  const h = Buffer.alloc(46);
  h.writeUInt32LE(0x02014b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(20, 6);
  h.writeUInt16LE(e.streamed ? 0x0008 : 0, 8);
  h.writeUInt16LE(8, 10);
  h.writeUInt16LE(0, 12);
  h.writeUInt16LE(DOS_DATE, 14);
  h.writeUInt32LE(e.crc, 16);
  h.writeUInt32LE(e.compressed, 20);
  h.writeUInt32LE(e.size, 24);
  h.writeUInt16LE(e.name.length, 28);
  h.writeUInt32LE(e.offset, 42);
  return Buffer.concat([h, e.name]);
}

function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

/** XML 1.0 has no place for control characters other than tab, CR and LF, escaped or not. */
function hasNonXml(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0xfffe || c === 0xffff) {
      return true;
    }
  }
  return false;
}

function escapeXml(text: string): string {
  return text.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!,
  );
}

export function xlsxWriter(names: readonly string[]): RowWriter {
  const columns = names.map((_, i) => columnName(i));
  const entries: EntryRecord[] = [];
  let offset = 0;
  let rowNumber = 0;
  let pending: string[] = [];
  let pendingBytes = 0;
  const sheet: EntryRecord = {
    name: Buffer.from(SHEET),
    crc: 0,
    compressed: 0,
    size: 0,
    offset: 0,
    streamed: true,
  };

  const emit = (parts: Buffer[]): Buffer => {
    const out = Buffer.concat(parts);
    offset += out.length;
    return out;
  };

  /** Deflates the sheet XML held so far as a piece of the one deflate stream. */
  const flushSheet = (final: boolean): Buffer => {
    const raw = Buffer.from(pending.join(''), 'utf8');
    pending = [];
    pendingBytes = 0;
    sheet.crc = crc32(raw, sheet.crc);
    sheet.size += raw.length;
    const piece = deflateRawSync(raw, {
      finishFlush: final ? constants.Z_FINISH : constants.Z_SYNC_FLUSH,
    });
    sheet.compressed += piece.length;
    return piece;
  };

  const cellXml = (cell: Cell, i: number): string => {
    if (cell === null) return '';
    const ref = `${columns[i]}${rowNumber}`;
    if (cell.type === 'integer' || cell.type === 'decimal') {
      return `<c r="${ref}"><v>${cell.text}</v></c>`;
    }
    if (cell.type === 'boolean') {
      return `<c r="${ref}" t="b"><v>${cell.text === 'true' ? 1 : 0}</v></c>`;
    }
    if (hasNonXml(cell.text)) {
      throw new RowProblem(names[i] ?? String(i), 'holds a control character XLSX cannot hold');
    }
    return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(cell.text)}</t></is></c>`;
  };

  const addRow = (cells: readonly Cell[]): Buffer => {
    rowNumber += 1;
    const xml = `<row r="${rowNumber}">${cells.map(cellXml).join('')}</row>`;
    pending.push(xml);
    pendingBytes += xml.length;
    return pendingBytes >= FLUSH_BYTES ? emit([flushSheet(false)]) : Buffer.alloc(0);
  };

  return {
    start() {
      const parts: Buffer[] = [];
      for (const [name, text] of FIXED_PARTS) {
        const raw = Buffer.from(text, 'utf8');
        const data = deflateRawSync(raw);
        const entry: EntryRecord = {
          name: Buffer.from(name),
          crc: crc32(raw),
          compressed: data.length,
          size: raw.length,
          offset: offset + parts.reduce((n, p) => n + p.length, 0),
          streamed: false,
        };
        entries.push(entry);
        parts.push(localHeader(entry), data);
      }
      sheet.offset = offset + parts.reduce((n, p) => n + p.length, 0);
      entries.push(sheet);
      parts.push(localHeader(sheet));
      pending.push(`${XML}<worksheet xmlns="${MAIN}"><sheetData>`);
      const header = names.map((n) => ({ type: 'string' as const, text: n }));
      const out = emit(parts);
      return Buffer.concat([out, addRow(header)]);
    },
    row: addRow,
    end() {
      pending.push('</sheetData></worksheet>');
      const last = flushSheet(true);
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(sheet.crc, 4);
      descriptor.writeUInt32LE(sheet.compressed, 8);
      descriptor.writeUInt32LE(sheet.size, 12);
      const body = emit([last, descriptor]);
      const directoryOffset = offset;
      const directory = Buffer.concat(entries.map(centralHeader));
      const eocd = Buffer.alloc(22);
      eocd.writeUInt32LE(0x06054b50, 0);
      eocd.writeUInt16LE(entries.length, 8);
      eocd.writeUInt16LE(entries.length, 10);
      eocd.writeUInt32LE(directory.length, 12);
      eocd.writeUInt32LE(directoryOffset, 16);
      return Buffer.concat([body, emit([directory, eocd])]);
    },
  };
}
