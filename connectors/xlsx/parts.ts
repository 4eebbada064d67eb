/**
 * The workbook's small parts: which sheets there are and where (workbook.xml and its
 * relationships), which cell styles show dates (styles.xml), and the shared strings.
 */
import { posix } from 'node:path';
import { appendBounded, checkedSize, type Oversized } from '../bounded-text.js';
import { ConnectorError } from '../errors.js';
import { isDateFormat } from './cell-value.js';
import { local, readPart, type PartParser } from './sax-part.js';
import type { ZipArchive } from './zip.js';

export interface SheetRef {
  name: string;
  /** The sheet's part in the archive, e.g. `xl/worksheets/sheet1.xml`. */
  part: string;
}

export interface Workbook {
  sheets: SheetRef[];
  date1904: boolean;
  /** The shared strings part, when the workbook has one. */
  sharedStrings?: string;
  styles?: string;
}

/** Attribute by local name (`r:id` and `id` alike). */
function attr(attributes: Record<string, string>, name: string): string | undefined {
  for (const [k, v] of Object.entries(attributes)) if (local(k) === name) return v;
  return undefined;
}

/** Relationship id -> {type, part}, targets resolved against the folder of `fromPart`. */
async function readRels(
  zip: ZipArchive,
  fromPart: string,
): Promise<Map<string, { type: string; part: string }>> {
  const dir = posix.dirname(fromPart);
  const relsPart = posix.join(dir, '_rels', `${posix.basename(fromPart)}.rels`);
  const rels = new Map<string, { type: string; part: string }>();
  if (!zip.has(relsPart)) return rels;
  await readPart(zip, relsPart, (p: PartParser) => {
    p.on('opentag', (tag) => {
      if (local(tag.name) !== 'Relationship') return;
      const target = tag.attributes.Target ?? '';
      const part = target.startsWith('/')
        ? target.slice(1)
        : posix.normalize(posix.join(dir, target));
      rels.set(tag.attributes.Id ?? '', { type: tag.attributes.Type ?? '', part });
    });
  });
  return rels;
}

export async function readWorkbook(zip: ZipArchive): Promise<Workbook> {
  const file = zip.name;
  const root = await readRels(zip, '');
  const main = [...root.values()].find((r) => r.type.endsWith('/officeDocument'))?.part;
  const workbookPart = main ?? 'xl/workbook.xml';
  if (!zip.has(workbookPart)) {
    throw new ConnectorError(
      `${file} is a zip archive but not an XLSX workbook (no ${workbookPart}).`,
      {
        file,
      },
    );
  }
  const rels = await readRels(zip, workbookPart);
  const sheets: SheetRef[] = [];
  let date1904 = false;
  await readPart(zip, workbookPart, (p) => {
    p.on('opentag', (tag) => {
      const name = local(tag.name);
      if (name === 'workbookPr') {
        const v = tag.attributes.date1904;
        date1904 = v === '1' || v === 'true';
      } else if (name === 'sheet') {
        const rel = rels.get(attr(tag.attributes, 'id') ?? '');
        if (rel?.type.endsWith('/worksheet'))
          sheets.push({ name: tag.attributes.name ?? '', part: rel.part });
      }
    });
  });
  const byType = (suffix: string): string | undefined =>
    [...rels.values()].find((r) => r.type.endsWith(suffix))?.part;
  const sharedStrings = byType('/sharedStrings');
  const styles = byType('/styles');
  return {
    sheets,
    date1904,
    ...(sharedStrings && zip.has(sharedStrings) ? { sharedStrings } : {}),
    ...(styles && zip.has(styles) ? { styles } : {}),
  };
}

/** For each cell style (index of `s`), whether its number format shows a date. */
export async function readDateStyles(zip: ZipArchive, part: string): Promise<boolean[]> {
  const formats = new Map<number, string>();
  const xfFormats: number[] = [];
  let inCellXfs = false;
  await readPart(zip, part, (p) => {
    p.on('opentag', (tag) => {
      const name = local(tag.name);
      if (name === 'numFmt') {
        formats.set(Number(tag.attributes.numFmtId), tag.attributes.formatCode ?? '');
      } else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) xfFormats.push(Number(tag.attributes.numFmtId ?? 0));
    });
    p.on('closetag', (tag) => {
      if (local(tag.name) === 'cellXfs') inCellXfs = false;
    });
  });
  return xfFormats.map((id) => isDateFormat(id, formats.get(id)));
}

/**
 * The shared strings, in order (rich text runs joined; phonetic hints left out); one over
 * maxFieldBytes is kept as its size alone, and a cell that refers to it is an error.
 */
export async function readSharedStrings(
  zip: ZipArchive,
  part: string,
): Promise<(string | Oversized)[]> {
  const strings: (string | Oversized)[] = [];
  const { maxFieldBytes } = zip.limits;
  let current: string | Oversized | undefined;
  let inText = false;
  let phonetic = 0;
  await readPart(zip, part, (p) => {
    p.on('opentag', (tag) => {
      const name = local(tag.name);
      if (name === 'si') current = '';
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && phonetic === 0) inText = true;
    });
    const onText = (text: string): void => {
      if (inText && current !== undefined) current = appendBounded(current, text, maxFieldBytes);
    };
    p.on('text', onText);
    p.on('cdata', onText);
    p.on('closetag', (tag) => {
      const name = local(tag.name);
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si') {
        strings.push(checkedSize(current ?? '', maxFieldBytes));
        current = undefined;
      }
    });
  });
  return strings;
}
