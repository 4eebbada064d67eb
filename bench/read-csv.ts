/**
 * How fast the csv connector reads: `node --import tsx bench/read-csv.ts [FILE] [--rows N]`.
 * Without FILE it writes (once) an export in the shape of shared/fixtures/erp/items.csv —
 * Windows-1252, `;`, CRLF, quoted fields with `;`, `""` and line breaks, blank lines — with N
 * rows (default 1,000,000) to .bench-data/, then reads it through readSource and prints rows per
 * second and the peak RSS of the process.
 */
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readSource } from '../connectors/read-source.js';
import { PROJECT_ROOT } from '../src/config/load-config.js';

const HEADER =
  'No.;Description;Description 2;Vendor Name;Item Category Code;Item Category Name;Parent Category Code;' +
  'Category Sort;Unit Price;Currency;Blocked;GTIN;Web Handle;Last Date Modified';
const NAMES = [
  'Tynn voks, herre',
  'Varm støvler',
  '"Myk jakke 12"" modell"',
  '"Lett sokker; limited"',
  'Ull lue',
];
const VENDORS = ['Norrøna', 'Åsnes', 'Bergans', 'Devold', 'Jøtul'];

function row(i: number): string {
  const name = i % 1000 === 7 ? '"Myk lue\r\nNy linje i beskrivelsen"' : NAMES[i % NAMES.length];
  const price = `${Math.floor(i / 7) % 5000},${String(i % 100).padStart(2, '0')}`;
  const gtin = String(7_000_000_000_000 + i).padStart(13, '0');
  const blank = i % 5000 === 0 ? '\r\n' : '';
  return `${blank}${100_000 + i};${name};Størrelse M;${VENDORS[i % VENDORS.length]};SKI;Ski & staver;;30;${price};NOK;No;${gtin};;14.02.2026\r\n`;
}

async function generate(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  let text = `${HEADER}\r\n`;
  for (let i = 0; i < rows; i++) {
    text += row(i);
    if (text.length > 1 << 16) {
      if (!out.write(Buffer.from(text, 'latin1'))) await once(out, 'drain');
      text = '';
    }
  }
  out.end(Buffer.from(text, 'latin1'));
  await once(out, 'finish');
}

const { values, positionals } = parseArgs({
  options: { rows: { type: 'string', default: '1000000' } },
  allowPositionals: true,
});
let file = positionals[0];
if (!file) {
  const rows = Number(values.rows);
  const dir = join(PROJECT_ROOT, '.bench-data');
  file = join(dir, `items-${rows}.csv`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    process.stderr.write(`writing ${rows} rows to ${file}...\n`);
    await generate(file, rows);
  }
}

const started = performance.now();
const { items, meta } = readSource({ file });
let records = 0;
let errors = 0;
for await (const item of items) {
  if ('record' in item) records++;
  else errors++;
}
const seconds = (performance.now() - started) / 1000;
const peakMb = process.resourceUsage().maxRSS / 1024;
console.log(
  JSON.stringify({
    file,
    encoding: meta.encoding,
    delimiter: meta.delimiter,
    records,
    errors,
    seconds: Number(seconds.toFixed(2)),
    rowsPerSecond: Math.round(records / seconds),
    peakRssMb: Math.round(peakMb),
  }),
);
