/**
 * The console goes on answering while an import loads the platform's description
 * (docs/INTERFACE.md, Limits): a0..a30 of repeated `$ref`s (2^30 paths) used to block its event
 * loop for minutes; now it is resolved in a worker thread, in about a second. Over real TCP: the
 * description from a node:http server on port 0, `ferry serve` as a child process on port 0 (so a
 * blocked console cannot block the test too), real Redis.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { stringify } from 'yaml';
import { deleteKeys } from '../helpers/redis.js';
import { killLeft, spawnFerry, type FerryProcess } from '../queue/cli-process.js';
import { useDeliveryHarness } from '../queue/delivery-fixtures.js';
import { consoleTestConfig, OPERATOR } from './console-fixtures.js';

const h = useDeliveryHarness('desc-loading', { seed: 5 });
const children: FerryProcess[] = [];
afterAll(async () => {
  await killLeft(children);
  await deleteKeys(h.prefix);
});

/** a0..a30, each with two properties that point at the one below; and one `$ref` to held.json. */
function exponential(levels: number): string {
  const schemas: Record<string, unknown> = {
    [`a${levels}`]: { type: 'string' },
    Held: { $ref: 'held.json' },
  };
  for (let i = 0; i < levels; i++) {
    const below = { $ref: `#/components/schemas/a${i + 1}` };
    schemas[`a${i}`] = { type: 'object', properties: { left: below, right: below } };
  }
  const items = { $ref: '#/components/schemas/a0' };
  const body = { content: { 'application/json': { schema: { type: 'array', items } } } };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'exponential', version: '1' },
    paths: { '/external/api/products': { put: { requestBody: body } } },
    components: { schemas },
  });
}

/** A blocked console would not answer at all: a minute without an answer is a failure. */
async function healthz(url: string): Promise<number> {
  const res = await request(`${url}/healthz`, { headersTimeout: 60_000 });
  await res.body.dump();
  return res.statusCode;
}

describe('the console while an import loads a description', () => {
  it('answers /healthz while a0..a30 of repeated $refs loads, and the import answers', async () => {
    const held: ServerResponse[] = [];
    const asked: string[] = [];
    const platform = createServer((req, res) => {
      asked.push(req.url ?? '');
      if (req.url === '/openapi.json') res.end(exponential(30));
      else if (req.url === '/held.json') held.push(res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => platform.listen(0, '127.0.0.1', r));
    const described = `http://127.0.0.1:${(platform.address() as AddressInfo).port}/openapi.json`;
    const base = consoleTestConfig(h);
    const config = { ...base, interface: { ...base.interface, openapi: described } };
    const configFile = join(h.dir, 'ferry.yaml');
    writeFileSync(configFile, stringify(config));
    const serve = spawnFerry(['serve', '--port', '0'], configFile);
    children.push(serve);
    let url = '';
    while (!url) {
      if (serve.child.exitCode !== null) throw new Error(`serve exited: ${serve.stderr()}`);
      url = /listening on (http:\/\/\S+);/.exec(serve.stderr())?.[1] ?? '';
      await new Promise((r) => setTimeout(r, 20));
    }
    try {
      const imported = request(`${url}/api/pipelines/catalog/runs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'text/csv' },
        body: readFileSync(join(PROJECT_ROOT, 'examples/items.csv')),
      });
      while (!asked.includes('/held.json')) await new Promise((r) => setTimeout(r, 20));
      expect(await healthz(url)).toBe(200);
      // The last document arrives: now the $refs are resolved, while the console answers.
      for (const res of held) res.end('{"type":"object"}');
      expect(await healthz(url)).toBe(200);
      expect(await healthz(url)).toBe(200);
      const answer = await imported;
      const body = (await answer.body.json()) as { runId?: string; error?: { code: string } };
      expect({ status: answer.statusCode, code: body.error?.code }).toEqual({
        status: 202,
        code: undefined,
      });
    } finally {
      serve.child.kill('SIGKILL');
      await serve.exited;
      platform.closeAllConnections();
      await new Promise((r) => platform.close(r));
    }
  });
});
