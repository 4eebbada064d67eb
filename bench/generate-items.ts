/**
 * Writes an items.csv of N rows in the format of shared/fixtures/erp (README "items.csv"), with
 * the quirks real exports have: Windows-1252, `;`, CRLF, quoted fields holding `;`, `""` and line
 * breaks, blank lines, every decimal form (space, no-break space, `.` grouping, no decimals),
 * leading zeros, empty currencies, and a few rejectable records (empty No. or Description, a bad
 * or empty price, a repeated No.). Seeded: the same N and seed give the same bytes.
 *
 *   node --import tsx bench/generate-items.ts [N=1000000] [OUT=.bench-data/plan-items-N.csv] [--seed S]
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { mulberry32 } from '../src/simulator/prng.js';

const ADJ = [
  'Lett',
  'Varm',
  'Klassisk',
  'Ekstra',
  'Myk',
  'Vanntett',
  'Robust',
  'Tynn',
  'Ull',
  'Blå',
];
const NOUN = [
  'støvler',
  'lue',
  'genser',
  'bukse',
  'jakke',
  'voks',
  'ski',
  'staver',
  'sokker',
  'votter',
  'sko',
];
const VENDORS = [
  'Norrøna',
  'Bergans',
  'Åsnes',
  'Jøtul',
  'Helly Hansen',
  'Swix',
  'Dale of Norway',
  'Devold',
];
const CATEGORIES: [string, string, string, number][] = [
  ['GEN', 'Gensere', '', 10],
  ['ULL', 'Ullundertøy', 'GEN', 11],
  ['JAK', 'Jakker', '', 20],
  ['REG', 'Regntøy', 'JAK', 21],
  ['SKI', 'Ski & staver', '', 30],
  ['SMØ', 'Smøring', 'SKI', 31],
  ['SKO', 'Sko', '', 40],
  ['TUR', 'Tursko', 'SKO', 41],
];
const HEADER =
  'No.;Description;Description 2;Vendor Name;Item Category Code;Item Category Name;Parent Category Code;Category Sort;Unit Price;Currency;Blocked;GTIN;Web Handle;Last Date Modified';

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)] as T;
}

function price(r: () => number): string {
  const cents = Math.floor(r() * 500_000) + 100;
  const int = String(Math.floor(cents / 100));
  const frac = String(cents % 100).padStart(2, '0');
  const group = (sep: string): string => int.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  const form = r();
  if (form < 0.15) return `${group(' ')},${frac}`;
  if (form < 0.3) return `${group('\u00a0')},${frac}`;
  if (form < 0.4) return `${group('.')},${frac}`;
  if (form < 0.5) return int;
  return `${int},${frac}`;
}

function quote(field: string): string {
  return /[;"\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}

export function itemRow(i: number, r: () => number): string {
  const no = r() < 0.1 ? `0${String(i).padStart(6, '0')}` : String(100_000 + i);
  let name = `${pick(r, ADJ)} ${pick(r, NOUN)}`;
  const twist = r();
  if (twist < 0.03) name += '; limited';
  else if (twist < 0.05) name += ' 12" modell';
  else if (twist < 0.06) name += '\nNy linje i beskrivelsen';
  else if (twist < 0.1) name += ', herre';
  const [code, catName, parent, sort] = pick(r, CATEGORIES);
  const bad = r();
  const fields = [
    bad < 0.001 ? '' : no,
    bad > 0.999 ? '' : name,
    r() < 0.4 ? pick(r, ['Størrelse M', 'Farge: blå']) : '',
    pick(r, VENDORS),
    code,
    catName,
    parent,
    String(sort),
    bad > 0.001 && bad < 0.002 ? '12,34,56' : bad > 0.002 && bad < 0.0025 ? '' : price(r),
    r() < 0.3 ? '' : pick(r, ['NOK', 'NOK', 'SEK', 'EUR']),
    r() < 0.2 ? 'Yes' : 'No',
    String(Math.floor(r() * 1e12)).padStart(13, '0'),
    r() < 0.3 ? `${name.toLowerCase().replace(/[^a-zæøå0-9]+/g, '-')}-${no}` : '',
    `${String(1 + Math.floor(r() * 28)).padStart(2, '0')}.${String(1 + Math.floor(r() * 12)).padStart(2, '0')}.2026`,
  ];
  return fields.map(quote).join(';');
}

export async function generateItems(rows: number, out: string, seed = 7): Promise<void> {
  mkdirSync(dirname(out), { recursive: true });
  const stream = createWriteStream(out);
  const r = mulberry32(seed);
  let chunk = `${HEADER}\r\n`;
  for (let i = 0; i < rows; i++) {
    if (r() < 0.002) chunk += '\r\n';
    // About one row in 2,000 repeats an earlier No. (rejected as a repeated key).
    const row =
      i > 10 && r() < 0.0005
        ? itemRow(i - 7, mulberry32(seed + i - 7))
        : itemRow(i, mulberry32(seed + i));
    chunk += `${row}\r\n`;
    if (chunk.length > 1 << 16) {
      if (!stream.write(chunk, 'latin1')) await once(stream, 'drain');
      chunk = '';
    }
  }
  stream.end(chunk, 'latin1');
  await once(stream, 'finish');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const seedAt = args.indexOf('--seed');
  const seed = seedAt >= 0 ? Number(args.splice(seedAt, 2)[1]) : 7;
  const rows = Number(args[0] ?? 1_000_000);
  const out = resolve(args[1] ?? `.bench-data/plan-items-${rows}.csv`);
  await generateItems(rows, out, seed);
  console.log(JSON.stringify({ rows, file: out }));
}
