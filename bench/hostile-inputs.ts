/**
 * Hostile inputs, timed: `node --import tsx bench/hostile-inputs.ts [NAME-PART]`. Writes each input of
 * test/connectors/hostile-inputs.test.ts at full size to .bench-data/hostile/ (among them the
 * hardening issue's XLSX whose sheet inflates from 1.5 MB to 1.5 GB), reads each in a process of
 * its own as `ferry read` would, and prints one JSON line per input: what came of it (records,
 * row errors, or the refusal's code), seconds and the reading process's peak RSS (the first line,
 * a harmless two-row file, is what the process itself costs). The `giant-` inputs hold one record
 * over the connector's limit (17 MiB, or a text head followed by a 2 GB hole of a sparse file):
 * each is one row error naming its size (`firstError`), in memory bounded by the limit.
 * Then the hostile descriptions (`descriptionInputs`): each loaded in a process of its own as
 * `ferry interface check --openapi FILE` would, its products item schema compiled to check
 * payloads; one JSON line each: loaded (and the operations matched) or the refusal's code,
 * seconds and peak RSS (the loading worker's heap included).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSource } from '../connectors/read-source.js';
import {
  createSchemaCompiler,
  describedOperations,
  loadDescription,
  matchCatalog,
} from '../src/interface/index.js';
import { PROJECT_ROOT } from '../src/config/load-config.js';
import { buildXlsx, xlsxParts } from '../test/connectors/helpers/xlsx-builder.js';
import { packRepeated, zip } from '../test/connectors/helpers/zip-writer.js';
import { descriptionWith, exponentialRefs } from '../test/helpers/hostile-descriptions.js';

const MiB = 1024 * 1024;

/** One input: its file name, its content, and the reading's connector and options. */
interface Input {
  name: string;
  content: () => string | Buffer;
  /** Writes the file itself instead (a sparse file of gigabytes); returns its size in bytes. */
  write?: (file: string) => number;
  connector?: string;
  options?: Record<string, unknown>;
}

const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
  '<row r="1"><c r="A1" t="inlineStr"><is><t>sku</t></is></c></row>';

function xlsxBomb(head: string, unit: string, tail: string): Buffer {
  const parts = xlsxParts([{ name: 'Items', rows: [['sku']] }]);
  return zip({
    ...parts,
    'xl/worksheets/sheet1.xml': packRepeated(SHEET_HEAD + head, Buffer.from(unit), 1500, tail),
  });
}

const laughs = (): string => {
  const entities = Array.from(
    { length: 9 },
    (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`,
  );
  return (
    `<?xml version="1.0"?>\n<!DOCTYPE items [\n<!ENTITY lol0 "lol">\n${entities.join('\n')}\n]>\n` +
    '<items><item><sku>1</sku><name>&lol9;</name></item></items>\n'
  );
};

const INPUTS: Input[] = [
  // The reference: what reading a harmless file costs the same process.
  { name: 'csv-two-rows.csv', content: () => 'sku,name\n1,a\n2,b\n' },
  {
    name: 'xlsx-cell-1.5GB.xlsx',
    content: () =>
      xlsxBomb(
        '<row r="2"><c r="A2" t="inlineStr"><is><t>',
        'A'.repeat(MiB),
        '</t></is></c></row></sheetData></worksheet>',
      ),
  },
  {
    name: 'xlsx-rows-1.5GB.xlsx',
    content: () =>
      xlsxBomb(
        '',
        '<row><c t="inlineStr"><is><t>x</t></is></c></row>'.repeat(MiB / 50),
        '</sheetData></worksheet>',
      ),
  },
  {
    name: 'xml-external-entity.xml',
    content: () =>
      '<?xml version="1.0"?>\n<!DOCTYPE items [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n' +
      '<items><item><sku>1</sku><name>&x;</name></item></items>\n',
    connector: 'xml',
    options: { recordElement: 'item' },
  },
  {
    name: 'xml-billion-laughs.xml',
    content: laughs,
    connector: 'xml',
    options: { recordElement: 'item' },
  },
  {
    name: 'json-100000-deep.json',
    content: () => `[{"sku":"1","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}]\n`,
  },
  {
    // One element with 1.3 million attributes (15.8 MB): held whole, it took 775 MB.
    name: 'xml-1.3M-attributes.xml',
    content: () => {
      const attributes = Array.from({ length: 1_300_000 }, (_, i) => ` a${i}="x"`).join('');
      return `<items>\n<item${attributes}><sku>1</sku></item>\n<item><sku>2</sku></item>\n</items>\n`;
    },
    connector: 'xml',
    options: { recordElement: 'item' },
  },
  {
    name: 'json-repeated-keys.ndjson',
    content: () =>
      Array.from({ length: 200_000 }, (_, i) =>
        i % 1000 === 0 ? `{"sku":"J${i}","sku":"X"}\n` : `{"sku":"J${i}","name":"n"}\n`,
      ).join(''),
  },
  {
    name: 'csv-utf8-bom-read-as-1252.csv',
    content: () =>
      `\uFEFFNo.;Name\n${Array.from({ length: 200_000 }, (_, i) => `${i};Café\n`).join('')}`,
    options: { encoding: 'windows-1252' },
  },
  {
    name: 'json-invisible-key-names.ndjson',
    content: () =>
      Array.from({ length: 200_000 }, (_, i) =>
        i % 1000 === 0 ? `{"s\u200bku":"J${i}"}\n` : `{"sku":"J${i}"}\n`,
      ).join(''),
  },
  { name: 'csv-50MB-field.csv', content: () => `sku,name\n1,${'a'.repeat(50_000_000)}\n2,b\n` },
  {
    name: 'csv-million-columns.csv',
    content: () =>
      `${Array.from({ length: 1_000_000 }, (_, i) => `c${i}`).join(',')}\n${'1,'.repeat(999_999)}1\n`,
  },
  ...giantRecords(),
];

/** Letters that do not repeat (one letter repeated would pack like a zip bomb in a workbook). */
function letters(length: number): string {
  const bytes = Buffer.alloc(length);
  let seed = 7;
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    bytes[i] = 97 + (seed % 26);
  }
  return bytes.toString('latin1');
}

/** A text head of 2,038 records, then a hole of zeros to 2 GB (sparse: no disk used). */
function writeHole(head: string): (file: string) => number {
  return (file) => {
    writeFileSync(file, head);
    truncateSync(file, 2 * 1024 * MiB);
    return 2 * 1024 * MiB;
  };
}

/**
 * One record over the connector's limit (17 MiB against the default 16 MiB) in each format, and
 * a text head followed by a 2 GB hole: each is one row error naming its size, the other records
 * read, memory bounded by the limit (issue 37).
 */
function giantRecords(): Input[] {
  const giant = (): string => letters(17 * MiB);
  const xml = { connector: 'xml', options: { recordElement: 'item' } };
  const csvHead = `No.,name\n${Array.from({ length: 2038 }, (_, i) => `${i},name number ${i} of the head`).join('\n')}\n`;
  const ndjsonHead = Array.from(
    { length: 2038 },
    (_, i) => `{"sku":"${i}","name":"name number ${i} of the head"}\n`,
  ).join('');
  return [
    { name: 'giant-csv-17MiB-line.csv', content: () => `No.,name\n1,one\n${giant()}\n2,two\n` },
    { name: 'giant-csv-2GB-hole.csv', content: () => '', write: writeHole(csvHead) },
    {
      name: 'giant-json-17MiB-record.json',
      content: () => `[{"sku":"1"},\n{"sku":"G","name":"${giant()}"},\n{"sku":"2"}]\n`,
    },
    {
      name: 'giant-ndjson-17MiB-line.ndjson',
      content: () => `{"sku":"1"}\n{"sku":"G","name":"${giant()}"}\n{"sku":"2"}\n`,
    },
    { name: 'giant-ndjson-2GB-hole.ndjson', content: () => '', write: writeHole(ndjsonHead) },
    {
      name: 'giant-xml-17MiB-text.xml',
      content: () =>
        `<items>\n<item><sku>1</sku></item>\n<item><sku>G</sku><name>${giant()}</name></item>\n<item><sku>2</sku></item>\n</items>\n`,
      ...xml,
    },
    {
      name: 'giant-xlsx-17MiB-cell.xlsx',
      content: () =>
        buildXlsx([
          {
            name: 'Items',
            rows: [
              ['sku', 'name'],
              ['1', 'one'],
              ['G', { inline: giant() }],
              ['2', 'two'],
            ],
          },
        ]),
    },
  ];
}

/** Child: reads one input to its end and prints the outcome with its peak RSS. */
async function readOne(file: string, input: Input): Promise<void> {
  let records = 0;
  let rowErrors = 0;
  let firstError: string | undefined;
  let refused: string | undefined;
  try {
    for await (const item of readSource({ file }, input.connector, input.options ?? {}).items) {
      if ('record' in item) records++;
      else if (rowErrors++ === 0) firstError = `line ${item.error.line}: ${item.error.message}`;
    }
  } catch (error) {
    refused = (error as { code?: string }).code ?? (error as Error).message;
  }
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(
    `${JSON.stringify({ records, rowErrors, firstError, refused, peakRssMb })}\n`,
  );
}

/** a0..a30 in a description past the in-process size (padded with 1 MB of text): the worker. */
function exponentialInWorker(): string {
  const doc = JSON.parse(exponentialRefs(30)) as { info: Record<string, unknown> };
  doc.info.description = 'x'.repeat(MiB);
  return JSON.stringify(doc);
}

/** 60,000 schemas, each naming one shared leaf by `$ref`: 19 MB, just under the size budget. */
function manySchemas(): string {
  const schemas: Record<string, unknown> = { leaf: { type: 'string' } };
  const item: Record<string, unknown> = {};
  for (let i = 0; i < 60_000; i++) {
    schemas[`s${i}`] = {
      type: 'object',
      description: 'y'.repeat(200),
      properties: { next: { $ref: '#/components/schemas/leaf' } },
    };
    if (i % 100 === 0) item[`p${i}`] = { $ref: `#/components/schemas/s${i}` };
  }
  return descriptionWith({ type: 'object', properties: item }, schemas);
}

/** YAML anchors nine deep, each alias list ten long: 10^9 strings once expanded. */
function yamlAliasBomb(): string {
  const lines = ['openapi: 3.0.3', 'info: {title: bomb, version: "1"}', 'paths: {}', 'x:'];
  lines.push('  l0: &l0 ["lol"]');
  for (let i = 1; i <= 9; i++)
    lines.push(
      `  l${i}: &l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(', ')}]`,
    );
  return `${lines.join('\n')}\n`;
}

/** The hostile descriptions; `secret` is the path of a file no description may read. */
function descriptionInputs(secret: string): Input[] {
  return [
    { name: 'openapi-plain.json', content: () => descriptionWith({ type: 'object' }, {}) },
    {
      name: 'openapi-file-ref.json',
      content: () => descriptionWith({ $ref: `file://${secret}` }, {}),
    },
    {
      name: 'openapi-etc-passwd-ref.json',
      content: () => descriptionWith({ $ref: '/etc/passwd' }, {}),
    },
    { name: 'openapi-exponential-30.json', content: () => exponentialRefs(30) },
    { name: 'openapi-exponential-100.json', content: () => exponentialRefs(100) },
    { name: 'openapi-exponential-1000.json', content: () => exponentialRefs(1000) },
    { name: 'openapi-exponential-30-in-worker.json', content: exponentialInWorker },
    { name: 'openapi-60000-schemas-19MB.json', content: manySchemas },
    { name: 'openapi-yaml-alias-bomb.yaml', content: yamlAliasBomb },
  ];
}

/** Child: loads one description and compiles its products item schema; prints the outcome. */
async function describeOne(file: string): Promise<void> {
  let matched: number | undefined;
  let refused: string | undefined;
  try {
    const description = await loadDescription(file);
    const match = matchCatalog(describedOperations(description.doc));
    const put = match.matched.get('products.put');
    const items = (put?.requestSchema as { items?: Record<string, unknown> } | undefined)?.items;
    if (put && items) createSchemaCompiler(file, description.dialect)(items, put.pointer);
    matched = match.matched.size;
  } catch (error) {
    refused = (error as { code?: string }).code ?? (error as Error).message;
  }
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(`${JSON.stringify({ matched, refused, peakRssMb })}\n`);
}

/** Writes each input, runs `--child-mode NAME` on it in a process of its own, prints the line. */
function timeInputs(inputs: Input[], childMode: string, pick: string | undefined): void {
  mkdirSync(dir, { recursive: true });
  const self = fileURLToPath(import.meta.url);
  for (const input of inputs.filter((i) => pick === undefined || i.name.includes(pick))) {
    const file = resolve(dir, input.name);
    const content = input.write ? '' : input.content();
    if (!input.write) writeFileSync(file, content);
    const bytes = input.write ? input.write(file) : Buffer.byteLength(content);
    const started = process.hrtime.bigint();
    const child = spawnSync(process.execPath, ['--import', 'tsx', self, childMode, input.name], {
      encoding: 'utf8',
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const outcome = JSON.parse(child.stdout) as Record<string, unknown>;
    process.stdout.write(
      `${JSON.stringify({ input: input.name, bytes, ...outcome, seconds: Number(seconds.toFixed(2)) })}\n`,
    );
  }
}

const dir = resolve(PROJECT_ROOT, '.bench-data/hostile');
const SECRET = resolve(PROJECT_ROOT, '.bench-data/hostile-secret/secret.yaml');
// `--child NAME` reads one input, `--description NAME` loads one description (the parent's child
// processes); any other argument picks the inputs whose names contain it.
const [mode, only] = process.argv.slice(2);
if (mode === '--child') {
  const input = INPUTS.find((i) => i.name === only)!;
  await readOne(resolve(dir, input.name), input);
} else if (mode === '--description') {
  await describeOne(resolve(dir, only!));
} else {
  timeInputs(INPUTS, '--child', mode);
  mkdirSync(resolve(SECRET, '..'), { recursive: true });
  writeFileSync(SECRET, 'password: [SECRET-never-shown\n');
  timeInputs(descriptionInputs(SECRET), '--description', mode);
}
