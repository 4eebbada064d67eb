/** Builds small XLSX workbooks for tests: real Office Open XML parts, zipped by zip-writer.ts. */
import { zip } from './zip-writer.js';

export type CellSpec =
  | string
  | number
  | boolean
  | null
  | { date: number }
  | { dateTime: number }
  | { raw: string }
  | { error: string }
  | { inline: string }
  | { formula: string; value: string }
  | { rich: string[] };

export interface SheetSpec {
  name: string;
  /** Rows from row 1, or `{r, cells}` to give a row number (gaps are empty rows). */
  rows: Array<CellSpec[] | { r: number; cells: CellSpec[] }>;
}

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const column = (i: number): string => {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26))
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export function buildXlsx(sheets: SheetSpec[], options: { date1904?: boolean } = {}): Buffer {
  return zip(xlsxParts(sheets, options));
}

/** The workbook's parts by name, before zipping (for tests that swap or forge one). */
export function xlsxParts(
  sheets: SheetSpec[],
  options: { date1904?: boolean } = {},
): Record<string, string | Buffer> {
  const shared: string[] = [];
  const sharedIndex = (si: string): number => {
    shared.push(si);
    return shared.length - 1;
  };
  const cellXml = (spec: CellSpec, ref: string): string => {
    if (spec === null) return '';
    if (typeof spec === 'string')
      return `<c r="${ref}" t="s"><v>${sharedIndex(`<t>${esc(spec)}</t>`)}</v></c>`;
    if (typeof spec === 'number') return `<c r="${ref}"><v>${spec}</v></c>`;
    if (typeof spec === 'boolean') return `<c r="${ref}" t="b"><v>${spec ? 1 : 0}</v></c>`;
    if ('date' in spec) return `<c r="${ref}" s="1"><v>${spec.date}</v></c>`;
    if ('dateTime' in spec) return `<c r="${ref}" s="2"><v>${spec.dateTime}</v></c>`;
    if ('raw' in spec) return `<c r="${ref}" s="3"><v>${spec.raw}</v></c>`;
    if ('error' in spec) return `<c r="${ref}" t="e"><v>${esc(spec.error)}</v></c>`;
    if ('inline' in spec)
      return `<c r="${ref}" t="inlineStr"><is><t>${esc(spec.inline)}</t></is></c>`;
    if ('formula' in spec)
      return `<c r="${ref}" t="str"><f>${esc(spec.formula)}</f><v>${esc(spec.value)}</v></c>`;
    const runs = spec.rich.map(
      (t, i) => `<r>${i ? '<rPr><b/></rPr>' : ''}<t xml:space="preserve">${esc(t)}</t></r>`,
    );
    return `<c r="${ref}" t="s"><v>${sharedIndex(`${runs.join('')}<rPh sb="0" eb="1"><t>phonetic</t></rPh>`)}</v></c>`;
  };
  const sheetXml = (sheet: SheetSpec): string => {
    let next = 1;
    const rows = sheet.rows.map((row) => {
      const { r, cells } = Array.isArray(row) ? { r: next, cells: row } : row;
      next = r + 1;
      return `<row r="${r}">${cells.map((c, i) => cellXml(c, `${column(i)}${r}`)).join('')}</row>`;
    });
    return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${NS}" xmlns:r="${REL}"><sheetData>${rows.join('\n')}</sheetData></worksheet>`;
  };
  const parts: Record<string, string | Buffer> = {};
  sheets.forEach((sheet, i) => (parts[`xl/worksheets/sheet${i + 1}.xml`] = sheetXml(sheet)));
  parts['[Content_Types].xml'] =
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"></Types>';
  parts['_rels/.rels'] =
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
  parts['xl/workbook.xml'] =
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${NS}" xmlns:r="${REL}">` +
    `<workbookPr${options.date1904 ? ' date1904="1"' : ''}/><sheets>` +
    sheets
      .map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
      .join('') +
    '</sheets></workbook>';
  parts['xl/_rels/workbook.xml.rels'] =
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    sheets
      .map(
        (_s, i) =>
          `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
      )
      .join('') +
    `<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` +
    `<Relationship Id="rIdT" Type="${REL}/styles" Target="/xl/styles.xml"/></Relationships>`;
  // Styles: 0 General, 1 a built-in date (14), 2 a custom date-time, 3 a number format (0.00).
  // cellStyleXfs holds a date format that must not be taken for a cell style.
  parts['xl/styles.xml'] =
    `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="${NS}">` +
    '<numFmts count="1"><numFmt numFmtId="164" formatCode="dd\\.mm\\.yyyy\\ hh:mm"/></numFmts>' +
    '<cellStyleXfs count="2"><xf numFmtId="14"/><xf numFmtId="14"/></cellStyleXfs>' +
    '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164"/><xf numFmtId="2"/></cellXfs>' +
    '</styleSheet>';
  parts['xl/sharedStrings.xml'] =
    `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${NS}" count="${shared.length}">` +
    shared.map((si) => `<si>${si}</si>`).join('') +
    '</sst>';
  return parts;
}
