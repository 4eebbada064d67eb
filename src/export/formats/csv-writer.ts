/**
 * CSV as ERPs import it: the target's delimiter, encoding (Windows-1252 or UTF-8, with a BOM when
 * asked), line ending, decimal separator, date formats and boolean words. A cell is quoted when it
 * holds the delimiter, a quote or a line break (quotes doubled, RFC 4180). Unlike the failure
 * reports (src/queue/csv.ts) nothing is prefixed against spreadsheet formulas: the file is read by
 * a program, and `-12,50` must stay a negative amount.
 */
import type { ExportTargetFile } from '../../pipeline/definition/export-schema.js';
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

  const line = (texts: readonly string[]): Buffer => {
    const chunks: Buffer[] = [];
    texts.forEach((text, i) => {
      const encoded = encode((i > 0 ? delimiter : '') + quote(text));
      if ('unmappable' in encoded) {
        throw new RowProblem(
          names[i] ?? String(i),
          `"${encoded.unmappable}" (U+${encoded.unmappable.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}) ` +
            `cannot be written in ${csv.encoding} (target.csv.unmappable: replace writes ? instead)`,
        );
      }
      chunks.push(encoded.bytes);
    });
    chunks.push(Buffer.from(eol));
    return Buffer.concat(chunks);
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
