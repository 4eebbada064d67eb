/**
 * Issue 33, items 3, 4 and 7: descriptions that delete and authenticate otherwise than Ferry's
 * assumed interface, each taken from `ferry interface check` to delivered runs with a delete and a
 * refusal, against the simulator playing the same description over TCP, checking what it received.
 * Deletes by bare keys in an envelope (3.1, type arrays), by key in the path with the API key in a
 * query parameter (3.0), by a comma-separated query parameter under OAuth2 client credentials with
 * a relative tokenUrl, scopes per operation and a public partner signup (3.1 JSON). Real Redis, an
 * in-process worker.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import type { AuthConfig, BindingConfig, FerryConfig } from '../../src/config/schema.js';
import { createInterfaceClient } from '../../src/interface/client.js';
import { configFromDescription } from '../../src/interface/openapi/configured-contract.js';
import { loadDescription } from '../../src/interface/openapi/load-description.js';
import type { InterfaceCheck } from '../../src/pipeline/contract/interface-check.js';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import type { RequestRecord } from '../../src/simulator/types.js';
import {
  copyPipelines,
  describedConfig,
  writeDescribedSetup,
} from '../helpers/described-platform.js';
import { ferryHere } from '../helpers/ferry-here.js';
import { itemExport } from '../helpers/item-export.js';
import { call } from '../simulator/sim-http.js';
import {
  followWithWorker,
  startCatalog,
  testConfig,
  useDeliveryHarness,
} from './delivery-fixtures.js';

const fixture = (name: string) => resolve(PROJECT_ROOT, 'test/fixtures/openapi', name);
const TOKEN = 'shape-secret-4711';

interface Platform {
  file: string;
  listing: 'A' | 'B';
  auth: AuthConfig;
  /** The products.delete binding `interface check` reports. */
  deleteStyle: string;
  /** Asserts the deletes of 20003 and 20004 arrived in the described shape. */
  expectDelete(deletes: RequestRecord[]): void;
  /** A delete of 20000 by hand in a shape the description does not take: method, path, body. */
  wrongDelete: { path: string; body?: unknown };
  /** Headers (and query) of a request by hand with the credential the description asks for. */
  credential: { headers?: Record<string, string>; query?: string };
}

const PLATFORMS: Record<string, Platform> = {
  'bare keys in an envelope, 3.1 type arrays, bearer': {
    file: fixture('bare-keys-3.1.yaml'),
    listing: 'A',
    auth: { type: 'bearer', token: TOKEN },
    deleteStyle: 'keys',
    expectDelete(deletes) {
      expect(deletes.map((r) => [r.path, r.body, r.items, r.status])).toEqual([
        ['/external/api/products', '{"externalIds":["20003","20004"]}', 2, 200],
      ]);
    },
    wrongDelete: {
      path: '/external/api/products',
      body: { externalIds: [{ externalId: '20000' }] },
    },
    credential: { headers: { authorization: `Bearer ${TOKEN}` } },
  },
  'one request per key in the path, API key in a query parameter (3.0)': {
    file: fixture('apikey-query-path-3.0.yaml'),
    listing: 'A',
    auth: { type: 'apiKey', query: 'api_key', key: TOKEN },
    deleteStyle: 'path',
    expectDelete(deletes) {
      expect(deletes.map((r) => [r.path, r.body, r.items, r.status])).toEqual([
        ['/external/api/products/20003', '', 1, 204],
        ['/external/api/products/20004', '', 1, 204],
      ]);
    },
    // The collection itself takes no DELETE here.
    wrongDelete: { path: '/external/api/products', body: [{ externalId: '20000' }] },
    credential: { query: `api_key=${TOKEN}` },
  },
  'a comma-separated query parameter, OAuth2 with a relative tokenUrl and scopes (3.1 JSON)': {
    file: fixture('oauth2-scopes-3.1.json'),
    listing: 'B',
    auth: {
      type: 'oauth2',
      tokenUrl: '/oauth/token',
      clientId: 'dev-client',
      clientSecret: 'dev-secret',
      clientAuth: 'basic',
    },
    deleteStyle: 'csv',
    expectDelete(deletes) {
      // One request, two keys: ?ids=20003,20004 (a repeated ?ids= is refused, below).
      expect(deletes.map((r) => [r.path, r.body, r.items, r.status])).toEqual([
        ['/external/api/products', '', 2, 200],
      ]);
    },
    // Repeated instead of comma-separated.
    wrongDelete: { path: '/external/api/products?ids=20000&ids=20001' },
    credential: {},
  },
};

const CATEGORIES = ['SKI', 'JAK', 'REG'];
const ITEMS = 12;

/** The ERP export: item i priced `base + i` kroner; items in `skip` left out. */
function exportRows(base: number, skip: number[] = []): string {
  return itemExport(ITEMS, (i) =>
    skip.includes(i)
      ? undefined
      : { category: CATEGORIES[i % CATEGORIES.length]!, price: `${base + i},50` },
  );
}

describe.each(Object.entries(PLATFORMS))('a platform described as: %s', (_label, platform) => {
  let config: FerryConfig;
  let env: NodeJS.ProcessEnv;
  const h = useDeliveryHarness(
    'shapes',
    { openapi: platform.file, token: TOKEN },
    async (harness) => {
      const setup = writeDescribedSetup(harness, platform);
      env = setup.env;
      config = await describedConfig(harness, platform, setup.pipelines);
    },
  );

  /** Runs the catalog on `rows` with a worker of its own, to its end. */
  async function run(name: string, rows: string) {
    const file = join(h.dir, name);
    writeFileSync(file, rows);
    const started = await startCatalog(h.redis, config, file, { allowDeletes: true });
    expect(started.plan.errors).toEqual([]);
    return followWithWorker(h.redis, config, started.runId);
  }

  it('ferry interface check passes the catalog and reports the described delete shape', async () => {
    const check = await ferryHere(['interface', 'check', '--json'], { env });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    const result = JSON.parse(check.stdout) as InterfaceCheck;
    expect(result.problems).toEqual([]);
    const deletes = result.bindings.find((b) => b.operationId === 'products.delete');
    expect(deletes?.deleteStyle).toBe(platform.deleteStyle);
    expect(deletes?.origins.deleteStyle).toBe('description');
  });

  it('delivers a run with a delete in the described shape and a refusal dead-lettered without the secret', async () => {
    const monday = await run('monday.csv', exportRows(100));
    expect(monday.operations['products.put']?.delivered).toBe(ITEMS);
    // Tuesday: items 3 and 4 left the export, item 5's new price is refused by the platform's rule.
    h.sim.setFaults({ rejectKeys: ['20005'] });
    const tuesday = await run(
      'tuesday.csv',
      exportRows(100, [3, 4]).replace(';105,50;', ';155,50;'),
    );
    h.sim.setFaults({ rejectKeys: [] });
    expect(tuesday.operations['products.delete']).toMatchObject({ planned: 2, delivered: 2 });
    expect(tuesday.operations['products.prices.patch']).toMatchObject({ planned: 1, failed: 1 });

    const received = h.sim.requests();
    platform.expectDelete(received.filter((r) => r.operationId === 'products.delete'));
    const products = h.sim.state('products') as { externalId: string }[];
    expect(products.map((p) => p.externalId)).not.toContain('20003');
    expect(products.map((p) => p.externalId)).not.toContain('20004');
    // The only refusal is the platform's rule: no request in a shape or with a credential it refused.
    const refused = received.filter((r) => r.status >= 400);
    expect(refused.map((r) => [r.operationId, r.status])).toEqual([['products.prices.patch', 422]]);
    expect(h.sim.stats().unauthorized).toBe(0);

    const letters = await createDeadLetterStore(h.redis, deliveryKeys(config.redis.prefix)).list({
      runId: tuesday.id,
    });
    expect(letters.map((l) => l.items.map((i) => i.key))).toEqual([['20005']]);
    // The credential (an API key in the query string among them) never reaches a dead letter or a report.
    expect(JSON.stringify(letters)).not.toContain(TOKEN);
    const reports = join(h.dir, 'reports');
    for (const name of readdirSync(reports)) {
      expect(readFileSync(join(reports, name), 'utf8')).not.toContain(TOKEN);
    }
  });

  it('refuses a delete by hand in a shape the description does not take', async () => {
    const { headers = {}, query } = platform.credential;
    const path = query
      ? `${platform.wrongDelete.path}${platform.wrongDelete.path.includes('?') ? '&' : '?'}${query}`
      : platform.wrongDelete.path;
    const oauth = platform.auth.type === 'oauth2';
    const answer = await call(h.sim, 'DELETE', path, {
      token: oauth ? TOKEN : null,
      headers,
      body: platform.wrongDelete.body,
    });
    expect([400, 404]).toContain(answer.status);
    const products = h.sim.state('products') as { externalId: string }[];
    expect(products.map((p) => p.externalId)).toContain('20000');
  });
});

describe('deletes the description takes as bare keys, with a binding that says key objects', () => {
  const file = fixture('bare-keys-3.1.yaml');
  const h = useDeliveryHarness('shapes-refused', { openapi: file, token: TOKEN }, () =>
    Promise.resolve(),
  );

  it('are refused at plan time naming the operation, the shape and the pointer; nothing is sent', async () => {
    const pipelines = copyPipelines(h.dir);
    const bindings: Record<string, BindingConfig> = { 'products.delete': { deleteStyle: 'body' } };
    const auth: AuthConfig = { type: 'bearer', token: TOKEN };
    const platform = { file, listing: 'A' as const, auth };
    const config = await describedConfig(h, platform, pipelines, { bindings });
    const monday = join(h.dir, 'monday.csv');
    writeFileSync(monday, exportRows(100));
    const first = await startCatalog(h.redis, config, monday);
    await followWithWorker(h.redis, config, first.runId);
    const sent = h.sim.stats().requests;

    const tuesday = join(h.dir, 'tuesday.csv');
    writeFileSync(tuesday, exportRows(100, [3]));
    const refused = startCatalog(h.redis, config, tuesday);
    await expect(refused).rejects.toMatchObject({
      code: 'FERRY_CONTRACT_SHAPE',
      exitCode: 2,
      details: {
        operationId: 'products.delete',
        shape: 'an array of {"externalId": KEY} objects in {"externalIds": [...]}',
        pointer: '/externalIds/0',
        key: '20003',
      },
    });
    await expect(refused).rejects.toThrow(
      'Plan of pipeline "catalog" stopped: products.delete cannot be sent as the description ' +
        '(/paths/~1external~1api~1products/delete) states it. Ferry builds an array of ' +
        '{"externalId": KEY} objects in {"externalIds": [...]}; for key "20003" the body at ' +
        '/externalIds/0 must be string, got {"externalId":"20003"}. Nothing was sent. Set ' +
        'interface.bindings.products.delete (deleteStyle, envelope, keyField) to the described ' +
        'shape (docs/INTERFACE.md, Bindings).',
    );
    expect(h.sim.stats().requests).toBe(sent);
  });
});

describe('OAuth2 per operation: a public signup, scopes, a relative tokenUrl', () => {
  const file = fixture('oauth2-scopes-3.1.json');
  const h = useDeliveryHarness('shapes-oauth', { openapi: file, token: TOKEN }, () =>
    Promise.resolve(),
  );

  function clientConfig(clientSecret: string): FerryConfig['interface'] {
    const plain = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'));
    const auth: AuthConfig = {
      type: 'oauth2',
      tokenUrl: 'oauth/token',
      clientId: 'dev-client',
      clientSecret,
      clientAuth: 'body',
    };
    return { ...plain.interface, listing: 'B', openapi: file, auth };
  }

  async function described(clientSecret: string) {
    const plain = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'));
    const config = configFromDescription(
      { ...plain, interface: clientConfig(clientSecret) },
      await loadDescription(file),
    );
    return createInterfaceClient(config.interface);
  }

  it('signs a partner up without any credential, though the client secret is wrong', async () => {
    const client = await described('not-the-secret');
    try {
      const answer = await client.call({
        operationId: 'partner.signup.post',
        body: { company: 'Fjord AS', email: 'post@fjord.example' },
      });
      expect(answer.status).toBe(201);
      // A write that needs the token fails: the secret is wrong.
      await expect(
        client.call({ operationId: 'categories.put', body: [{ externalId: 'C1', name: 'C' }] }),
      ).rejects.toMatchObject({ code: 'FERRY_HTTP_AUTH' });
    } finally {
      await client.close();
    }
  });

  it('fetches a token per set of scopes the operations name; the simulator checks them', async () => {
    const client = await described('dev-secret');
    try {
      await client.call({ operationId: 'categories.put', body: [{ externalId: 'C1', name: 'C' }] });
      await client.call({ operationId: 'products.delete', body: [{ externalId: 'C1' }] });
    } finally {
      await client.close();
    }
    // A token with catalog:write only may write but not delete.
    const form = 'grant_type=client_credentials&scope=catalog%3Awrite';
    const basic = Buffer.from('dev-client:dev-secret').toString('base64');
    const issued = await fetch(`${h.sim.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${basic}`,
      },
      body: form,
    });
    const { access_token: token, scope } = (await issued.json()) as {
      access_token: string;
      scope: string;
    };
    expect(scope).toBe('catalog:write');
    const write = await call(h.sim, 'PUT', '/external/api/categories', {
      token,
      body: [{ externalId: 'C2', name: 'D' }],
    });
    expect(write.status).toBe(200);
    const remove = await call(h.sim, 'DELETE', '/external/api/products?ids=C2', { token });
    expect(remove.status).toBe(401);
    expect(JSON.stringify(remove.body)).toContain('catalog:delete');
    // A scope the description does not declare is refused at the token endpoint.
    const unknown = await fetch(`${h.sim.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${basic}`,
      },
      body: 'grant_type=client_credentials&scope=admin',
    });
    expect(unknown.status).toBe(400);
  });

  it('interface check names the token URL it expected on a mismatch', async () => {
    const auth = {
      type: 'oauth2',
      tokenUrl: '/auth/token',
      clientId: 'dev-client',
      clientSecret: 'dev-secret',
    };
    const { env } = writeDescribedSetup(h, { file, listing: 'B', auth });
    const check = await ferryHere(['interface', 'check', '--json'], { env });
    expect(check.code).toBe(1);
    const result = JSON.parse(check.stdout) as InterfaceCheck;
    const mismatch = result.problems.filter((p) => p.code === 'AUTH_MISMATCH');
    expect(mismatch.map((p) => p.message)).toEqual([
      `interface.auth is OAuth2 with token URL ${h.sim.url}/auth/token; the description asks for ` +
        `OAuth2 client credentials with token URL ${h.sim.url}/oauth/token (tokenUrl "/oauth/token")`,
    ]);
    expect(check.stdout).not.toContain('dev-secret');
  });
});
