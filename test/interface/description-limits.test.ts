/**
 * What a description may read and how long it may take (docs/INTERFACE.md, Limits): its `$ref`s
 * resolve only inside it, to files under a local description's folder, or to a remote one's
 * origin, else they are refused before anything is read; repeated and circular `$ref`s are never
 * expanded; the budgets stop what would not end; a signal stops a load wherever it is. Over real
 * HTTP (node:http servers on port 0) and the `ferry` binary as a child process.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { hasCode } from '../../src/errors/index.js';
import { diffContract } from '../../src/interface/openapi/contract-diff.js';
import { describedOperations } from '../../src/interface/openapi/described-operations.js';
import { createSchemaCompiler } from '../../src/interface/openapi/item-contract.js';
import { loadDescription } from '../../src/interface/openapi/load-description.js';
import { matchCatalog } from '../../src/interface/openapi/match-catalog.js';
import { descriptionWith, exponentialRefs } from '../helpers/hostile-descriptions.js';
import { uniquePrefix } from '../helpers/redis.js';
import { killLeft, spawnFerry, writeConfigFile, type FerryProcess } from '../queue/cli-process.js';
import { tempDir } from '../queue/delivery-fixtures.js';

const dir = tempDir('desc-limits');
const servers: Server[] = [];
const children: FerryProcess[] = [];
afterEach(async () => {
  await killLeft(children);
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});
afterAll(() => dir.remove());

/** A node:http server on port 0 answering `routes` (others 404); it counts every request. */
async function serve(
  routes: Record<string, (res: ServerResponse) => void>,
): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    asked.push(req.url ?? '');
    const route = routes[req.url ?? ''];
    if (route) route(res);
    else res.writeHead(404).end();
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

const json = (text: string) => (res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(text);

async function refusal(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => new Error('loaded'),
    (e: Error) => e,
  );
  expect(error.message).not.toBe('loaded');
  return error;
}

function ferryCheck(url: string, extra: string[] = []): FerryProcess {
  const config = writeConfigFile(dir.path, uniquePrefix('desc'), 'http://127.0.0.1:9');
  const p = spawnFerry(['interface', 'check', '--openapi', url, ...extra], config);
  children.push(p);
  return p;
}

describe('a description reads no file it was not given', () => {
  it('over HTTP, a file $ref is refused unread: its content is nowhere, a missing file no probe', async () => {
    const secretDir = join(dir.path, 'secrets');
    mkdirSync(secretDir, { recursive: true });
    const marker = `SECRET-${randomBytes(6).toString('hex')}`;
    const secret = join(secretDir, 'secret.yaml');
    // Not YAML: a parser that reads it quotes its lines in the error.
    writeFileSync(secret, `user: admin\npassword: [${marker}\n`);
    const { url } = await serve({
      '/openapi.json': json(descriptionWith({ $ref: `file://${secret}` })),
      '/missing.json': json(descriptionWith({ $ref: `file://${secretDir}/none.yaml` })),
    });

    const p = ferryCheck(`${url}/openapi.json`, ['--json']);
    expect(await p.exited).toBe(2);
    const out = p.stdout() + p.stderr();
    expect(out).not.toContain(marker);
    expect(out).not.toContain('password');
    expect(JSON.parse(p.stdout()).error).toMatchObject({
      code: 'FERRY_OPENAPI_REF_REFUSED',
      ref: `file://${secret}`,
      pointer:
        '/paths/~1external~1api~1products/put/requestBody/content/application~1json/schema/items/$ref',
    });
    expect(p.stderr()).toContain('own origin');

    const missing = await refusal(loadDescription(`${url}/missing.json`));
    expect(hasCode(missing, 'FERRY_OPENAPI_REF_REFUSED')).toBe(true);
    expect(missing.message).not.toMatch(/ENOENT|no such file/);
  });

  it('a local description: /etc/passwd, ../ and a link out of its folder refused; a file beside it read', async () => {
    const root = join(dir.path, 'local');
    const api = join(root, 'api');
    mkdirSync(api, { recursive: true });
    const product = { Product: { type: 'object', properties: { sku: { type: 'string' } } } };
    writeFileSync(join(root, 'outside.json'), JSON.stringify(product));
    writeFileSync(join(api, 'schemas.json'), JSON.stringify(product));
    symlinkSync(join(root, 'outside.json'), join(api, 'link.json'));
    const write = (name: string, item: unknown) => {
      writeFileSync(join(api, name), descriptionWith(item));
      return join(api, name);
    };

    for (const ref of ['/etc/passwd', '../outside.json#/Product', 'link.json#/Product']) {
      const error = await refusal(loadDescription(write('refused.json', { $ref: ref })));
      expect(hasCode(error, 'FERRY_OPENAPI_REF_REFUSED'), error.message).toBe(true);
      expect(error.message).toContain(`$ref "${ref}"`);
      expect(error.message).toContain("outside the description's folder");
    }
    const http = await refusal(
      loadDescription(write('http.json', { $ref: 'http://127.0.0.1:9/x.json' })),
    );
    expect(hasCode(http, 'FERRY_OPENAPI_REF_REFUSED')).toBe(true);

    const beside = await loadDescription(write('beside.json', { $ref: 'schemas.json#/Product' }));
    const put = matchCatalog(describedOperations(beside.doc)).matched.get('products.put');
    expect(put?.requestSchema).toMatchObject({
      items: { properties: { sku: { type: 'string' } } },
    });
  });

  it('a remote description reads its own origin only: another origin is refused unasked', async () => {
    const other = await serve({ '/product.json': json('{"type":"object"}') });
    const { url } = await serve({
      '/api/openapi.json': json(descriptionWith({ $ref: 'schemas.json#/Product' })),
      '/api/schemas.json': json('{"Product":{"type":"object","required":["sku"]}}'),
      '/api/foreign.json': json(descriptionWith({ $ref: `${other.url}/product.json` })),
    });
    const own = await loadDescription(`${url}/api/openapi.json`);
    expect(describedOperations(own.doc)[0]?.requestSchema).toMatchObject({
      items: { required: ['sku'] },
    });
    const error = await refusal(loadDescription(`${url}/api/foreign.json`));
    expect(hasCode(error, 'FERRY_OPENAPI_REF_REFUSED')).toBe(true);
    expect(error.message).toContain('another origin');
    expect(other.asked).toEqual([]);
  });
});

describe('bounded loading', () => {
  it('a0..a30 of repeated $refs loads, its payloads are checked, nothing is expanded', async () => {
    const file = join(dir.path, 'exponential.json');
    writeFileSync(file, exponentialRefs(30));
    const loaded = await loadDescription(file);
    const put = matchCatalog(describedOperations(loaded.doc)).matched.get('products.put')!;
    const items = (put.requestSchema as { items: Record<string, unknown> }).items;
    const contract = createSchemaCompiler(file, loaded.dialect)(items, put.pointer);
    let deep: unknown = '7';
    for (let i = 0; i < 30; i++) deep = { left: deep };
    expect(contract.check(deep)).toBeUndefined();
    expect(contract.write?.(deep)).toBe(`${'{"left":'.repeat(30)}7${'}'.repeat(30)}`);
    expect(contract.check({ right: { left: 'x' } })).toEqual([
      { pointer: '/right/left', message: 'must be object, got "x"' },
    ]);
  });

  it('a circular schema is checked through its $ref, at any depth', async () => {
    const file = join(dir.path, 'circular.json');
    const node = {
      type: 'object',
      properties: {
        sort: { type: 'number', multipleOf: 0.01 },
        children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
      },
    };
    writeFileSync(file, descriptionWith({ $ref: '#/components/schemas/Node' }, { Node: node }));
    const loaded = await loadDescription(file);
    const put = matchCatalog(describedOperations(loaded.doc)).matched.get('products.put')!;
    const items = (put.requestSchema as { items: Record<string, unknown> }).items;
    const contract = createSchemaCompiler(file, loaded.dialect)(items, put.pointer);
    const tree = { sort: '1.50', children: [{ sort: '2', children: [{ sort: '0.125' }] }] };
    expect(contract.check(tree)).toEqual([
      {
        pointer: '/children/0/children/0/sort',
        message: 'must be a multiple of 0.01 (at most 2 decimals), got 0.125; it is not rounded',
      },
    ]);
    expect(contract.write?.(tree)).toBe(
      '{"sort":1.50,"children":[{"sort":2,"children":[{"sort":0.125}]}]}',
    );
  });

  it('past a budget (depth, time, documents, memory) the load stops, naming the budget', async () => {
    const file = join(dir.path, 'deep.json');
    writeFileSync(file, exponentialRefs(1000));
    const deep = await refusal(loadDescription(file));
    expect(hasCode(deep, 'FERRY_OPENAPI_BUDGET') && deep.details.budget).toBe('depth');
    expect(deep.message).toContain('256 levels');

    // Its $ref names another document: resolved in a worker, which 1 ms does not let finish.
    const timed = join(dir.path, 'timed');
    mkdirSync(timed, { recursive: true });
    writeFileSync(join(timed, 'a.json'), '{"type":"object"}');
    writeFileSync(join(timed, 'api.json'), descriptionWith({ $ref: 'a.json' }));
    const slow = await refusal(loadDescription(join(timed, 'api.json'), { budget: { ms: 1 } }));
    expect(hasCode(slow, 'FERRY_OPENAPI_BUDGET') && slow.details.budget).toBe('time');
    expect(slow.message).toContain('time budget');

    const many = join(dir.path, 'many');
    mkdirSync(many, { recursive: true });
    writeFileSync(join(many, 'a.json'), '{"type":"object"}');
    writeFileSync(join(many, 'b.json'), '{"type":"object"}');
    const two = { allOf: [{ $ref: 'a.json' }, { $ref: 'b.json' }] };
    writeFileSync(join(many, 'api.json'), descriptionWith(two));
    const documents = await refusal(
      loadDescription(join(many, 'api.json'), { budget: { maxDocuments: 1 } }),
    );
    expect(hasCode(documents, 'FERRY_OPENAPI_BUDGET') && documents.details.budget).toBe(
      'documents',
    );

    // 4 MB: past the in-process size, resolved in a worker whose heap is held to 16 MB.
    const big: Record<string, unknown> = {};
    for (let i = 0; i < 15_000; i++)
      big[`s${i}`] = { type: 'object', description: 'y'.repeat(250) };
    writeFileSync(join(dir.path, 'big.json'), descriptionWith({ type: 'object' }, big));
    const heavy = await refusal(
      loadDescription(join(dir.path, 'big.json'), { budget: { memoryMb: 16 } }),
    );
    expect(hasCode(heavy, 'FERRY_OPENAPI_BUDGET') && heavy.details.budget).toBe('memory');
  });

  it('SIGTERM stops `ferry interface check` in the middle of a load (exit 4)', async () => {
    const held: ServerResponse[] = [];
    const { url, asked } = await serve({
      '/openapi.json': json(descriptionWith({ $ref: 'slow.json' })),
      // Never answered while the test runs: the load waits on it.
      '/slow.json': (res) => held.push(res),
    });
    const p = ferryCheck(`${url}/openapi.json`);
    while (!asked.includes('/slow.json')) {
      if (p.child.exitCode !== null) throw new Error(`exited early: ${p.stderr()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(4);
    expect(p.stderr()).toContain('stopped (Ctrl-C or SIGTERM)');
    for (const res of held) res.destroy();
  });

  it('a breaking change is named where the file writes it, through the $ref that holds it', async () => {
    const price = (type: string) => ({
      Price: {
        type: 'object',
        properties: { amount: { type }, currency: { $ref: '#/components/schemas/Currency' } },
      },
      Currency: { type: 'string' },
      Product: {
        type: 'object',
        properties: { sku: { type: 'string' }, price: { $ref: '#/components/schemas/Price' } },
      },
    });
    const load = async (name: string, type: string) => {
      writeFileSync(
        join(dir.path, name),
        descriptionWith({ $ref: '#/components/schemas/Product' }, price(type)),
      );
      return (await loadDescription(join(dir.path, name))).doc;
    };
    const diff = diffContract(
      await load('before.json', 'number'),
      await load('after.json', 'string'),
    );
    expect(diff.breaking.map((c) => [c.kind, c.path])).toEqual([
      ['type_narrowed', '#/components/schemas/Price/properties/amount'],
    ]);
  });
});
