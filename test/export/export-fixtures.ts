/** Shared set-up of the export tests: pipeline files of their own, a config, reading files back. */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { parse, stringify } from 'yaml';
import { readSource } from '../../connectors/read-source.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import type { FerryConfig } from '../../src/config/schema.js';
import { exportStateKey } from '../../src/export/keys.js';
import { collect } from '../connectors/helpers/read.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { testConfig } from '../queue/delivery-fixtures.js';

export interface ExportFile {
  read: Record<string, unknown>;
  target: Record<string, unknown>;
  fields: Record<string, unknown>;
  [key: string]: unknown;
}

/** The shipped orders-export, as a plain object to change for a test. */
export function shippedOrdersExport(): ExportFile {
  const text = readFileSync(join(PROJECT_ROOT, 'config/pipelines/orders-export.yaml'), 'utf8');
  return parse(text) as ExportFile;
}

/** Writes <dir>/pipelines/<name>.yaml. */
export function writePipeline(dir: string, name: string, file: unknown): void {
  mkdirSync(join(dir, 'pipelines'), { recursive: true });
  writeFileSync(join(dir, 'pipelines', `${name}.yaml`), stringify(file));
}

/** The orders export of the tests: the shipped one, pages of `pageSize`, into <dir>/<folder>. */
export function ordersPipeline(dir: string, folder: string, pageSize = 100): ExportFile {
  const file = shippedOrdersExport();
  file.read.pageSize = pageSize;
  file.target.folder = join(dir, folder);
  return file;
}

export function exportConfig(prefix: string, baseUrl: string, dir: string): FerryConfig {
  const base = testConfig(prefix, baseUrl, join(dir, 'reports'));
  return { ...base, pipelines: { ...base.pipelines, dir: join(dir, 'pipelines') } };
}

/** The same config as a file, for `ferry` child processes. */
export function writeExportConfigFile(prefix: string, baseUrl: string, dir: string): string {
  const file = join(dir, 'ferry.yaml');
  writeFileSync(
    file,
    stringify({
      redis: { url: TEST_REDIS_URL, prefix },
      interface: { baseUrl, auth: { type: 'bearer', token: 'dev-token' } },
      delivery: { attempts: 10, backoff: { baseMs: 20, capMs: 200 } },
      pipelines: { dir: join(dir, 'pipelines') },
      log: { level: 'warn', format: 'json' },
    }),
  );
  return file;
}

export async function exportHash(
  redis: Redis,
  prefix: string,
  pipeline: string,
): Promise<Record<string, string>> {
  return await redis.hgetall(exportStateKey(prefix, pipeline));
}

/** The files people see in a folder (not the dot-named temporaries), in name order. */
export function visibleFiles(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((n) => !n.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
}

/** An ERP CSV of the orders export, read by Ferry's own csv connector. */
export async function readErpCsv(path: string): Promise<Record<string, string>[]> {
  const { records, errors } = await collect(
    readSource({ file: path }, 'csv', { delimiter: ';', encoding: 'windows-1252' }).items,
  );
  if (errors.length > 0) throw new Error(`${path}: ${JSON.stringify(errors[0])}`);
  return records.map((r) => ({ ...r.fields }));
}

export interface SimOrder {
  id: string;
  externalId: string;
  createdAt: string;
  storeExternalId: string;
  status: string;
  currency: string;
  lines: { productExternalId: string; quantity: number; unitPrice: string; lineTotal: string }[];
}

const OSLO = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Oslo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function osloTime(iso: string): string {
  const p = Object.fromEntries(OSLO.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
  return `${p.day}.${p.month}.${p.year} ${p.hour}:${p.minute}:${p.second}`;
}

/** The rows orders-export should write for these orders, as the csv connector reads them. */
export function expectedRows(orders: readonly SimOrder[]): Record<string, string>[] {
  const comma = (decimal: string): string => decimal.replace('.', ',');
  return orders.flatMap((o) =>
    o.lines.map((line, i) => ({
      orderId: o.id,
      orderNumber: o.externalId,
      orderDate: osloTime(o.createdAt),
      store: o.storeExternalId,
      status: o.status,
      line: String(i + 1),
      productNo: line.productExternalId,
      quantity: String(line.quantity),
      unitPrice: comma(line.unitPrice),
      lineAmount: comma(line.lineTotal),
      currency: o.currency,
    })),
  );
}
