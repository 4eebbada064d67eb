/**
 * What the console's tests share: a viewer and an operator token, a config with them, and items
 * files in the ERP's format (examples/items.csv: Windows-1252, `;`, CRLF, decimal comma).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import type { FerryConfig } from '../../src/config/schema.js';
import type { FastifyInstance } from 'fastify';
import type { RedisClient } from '../../src/redis/connection.js';
import { buildServer } from '../../src/serve/server.js';
import {
  quietLogger,
  runCatalog,
  testConfig,
  type DeliveryHarness,
} from '../queue/delivery-fixtures.js';

export const VIEWER = 'viewer-token-0123456789';
export const OPERATOR = 'operator-token-0123456789';

/** A test config of the harness's prefix and simulator, with the viewer `night-viewer` and the
 * operator `alice` (or the tokens given), and these serve.* values. */
export function consoleTestConfig(
  h: Pick<DeliveryHarness, 'prefix' | 'dir' | 'sim'>,
  serve: Partial<FerryConfig['serve']> = {},
  prefix = h.prefix,
): FerryConfig {
  const base = testConfig(prefix, h.sim.url, join(h.dir, 'reports'), { bundleSize: 10 });
  return {
    ...base,
    serve: {
      ...base.serve,
      tokens: [
        { name: 'night-viewer', role: 'viewer', token: VIEWER },
        { name: 'alice', role: 'operator', token: OPERATOR },
      ],
      ...serve,
    },
  };
}

const ITEMS_HEADER =
  'No.;Description;Description 2;Vendor Name;Item Category Code;Item Category Name;' +
  'Parent Category Code;Category Sort;Unit Price;Currency;Blocked;GTIN;Web Handle;Last Date Modified';

/** One item row: its No. (the key), price as written (`100,00`) and description. */
export function itemRow(no: string, price: string, name = `Item ${no}`): string {
  return `${no};${name};;Acme;GEN;Gensere;;10;${price};NOK;No;;;01.01.2026`;
}

/** Writes an items file of these rows; returns its path. */
export function writeItems(path: string, rows: readonly string[]): string {
  writeFileSync(path, [ITEMS_HEADER, ...rows, ''].join('\r\n'), 'latin1');
  return path;
}

/** Delivers an items file of these rows as a catalog run (a worker must run), to its end. */
export async function deliverItems(
  h: Pick<DeliveryHarness, 'dir' | 'redis'>,
  config: FerryConfig,
  rows: readonly string[],
): Promise<string> {
  const file = writeItems(join(h.dir, 'items.csv'), rows);
  return (await runCatalog(h.redis, config, file)).id;
}

/** The console of this config on a free port; closed by the caller. */
export async function listenConsole(
  config: FerryConfig,
  redis: RedisClient,
): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildServer({ config, redis, logger: quietLogger() });
  return { app, url: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

/** The console's answer: its status, the body parsed when it is JSON, and the text as sent. */
export interface ConsoleAnswer {
  status: number;
  body: unknown;
  text: string;
}

/**
 * One request of the console at `url` as a client makes it: the token as a bearer, a body as JSON
 * (POST unless another method is given).
 */
export async function callConsole(
  url: string,
  path: string,
  options: {
    token?: string;
    method?: 'GET' | 'POST';
    body?: unknown;
    headers?: Record<string, string>;
  } = {},
): Promise<ConsoleAnswer> {
  const json = options.body !== undefined;
  const res = await request(`${url}${path}`, {
    method: options.method ?? (json ? 'POST' : 'GET'),
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(json ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.body.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, body, text };
}
