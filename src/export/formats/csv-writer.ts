/**
 * CSV as ERPs import it: the target's delimiter, encoding (Windows-1252 or UTF-8, with a BOM when
 * asked), line ending, decimal separator, date formats and boolean words. A cell is quoted when it
 * holds the delimiter, a quote or a line break (quotes doubled, RFC 4180). Unlike the failure
 * reports (src/base/csv.ts) nothing is prefixed against spreadsheet formulas: the file is read by
 * a program, and `-12,50` must stay a negative amount.
 */
import type { ExportTargetFile } from '../../pipeline/index.js';
import { RowProblem, type Cell } from '../item-rows.js';
import type { RowWriter } from './row-writer.js';
import { textEncoder } from './text-encoder.js';

const DELIMITERS = { ',': ',', ';': ';', tab: '\t', '|': '|' } as const;

export function csvWriter(target: ExportTargetFile, names: readonly string[]): RowWriter {
  const { csv } = target;
  const delimiter = DELIMITERS[csv.delimiter];
  const eol = csv.lineEnding === 'crlf' ? '\r\n' : '\n';
  const encode = textEncoder(csv.encoding, csv.unmappable === 'replace');
  const needsQuotes = new RegExp(`[${delimiter === '\t' ? '\\t' : `\\${delimiter}`}"\\r\\n]`);
  const quote = (text: string): string =>
    needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text;

  const textOf = (cell: Cell): string => {
    if (cell === null) return '';
    if (cell.type === 'decimal' && target.decimalSeparator === ',') {
      return cell.text.replace('.', ',');
    }
    if (cell.type === 'boolean')
      return cell.text === 'true' ? target.booleans[0] : target.booleans[1];
    return cell.text;
  };

  const unwritable = (texts: readonly string[]): RowProblem => {
    // The error path: find the cell that holds the character, to name its field.
    const i = texts.findIndex((t) => 'unmappable' in encode(t));
    const char = (encode(texts[i] ?? '') as { unmappable: string }).unmappable;
    const code = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return new RowProblem(
      names[i] ?? String(i),
      `"${char}" (U+${code}) cannot be written in ${csv.encoding} ` +
        '(target.csv.unmappable: replace writes ? instead)',
    );
  };

  const line = (texts: readonly string[]): Buffer => {
    const encoded = encode(texts.map(quote).join(delimiter) + eol);
    if ('unmappable' in encoded) throw unwritable(texts);
    return encoded.bytes;
  };

  return {
    start() {
      const bom = csv.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0);
      return csv.header ? Buffer.concat([bom, line(names)]) : bom;
    },
    row: (cells) => line(cells.map(textOf)),
    end: () => Buffer.alloc(0),
  };
}
