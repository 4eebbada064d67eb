import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { operationsOfListing } from '../../src/interface/catalog.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { call } from './sim-http.js';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

function operationsOf(doc: Doc) {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      id: op.operationId as string,
      method: method.toUpperCase(),
      path,
      op,
    })),
  );
}

for (const listing of ['A', 'B'] as const) {
  describe(`openapi for listing ${listing}`, () => {
    let sim: RunningSimulator;
    let doc: Doc;
    beforeAll(async () => {
      sim = await startSimulator({ listing });
      const answer = await call(sim, 'GET', '/openapi.json', { token: null });
      expect(answer.status).toBe(200);
      doc = answer.body as Doc;
    });
    afterAll(async () => {
      await sim.close();
    });

    it('lists exactly the operations of the listing, with the catalog ids', () => {
      expect(doc.openapi).toBe('3.1.0');
      const listed = operationsOf(doc).map(({ id, method, path }) => ({ id, method, path }));
      const expected = operationsOfListing(listing).map(({ id, method, path }) => ({
        id,
        method,
        path,
      }));
      expect(listed.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        expected.sort((a, b) => a.id.localeCompare(b.id)),
      );
    });

    it('describes bearer auth, the idempotency header, 207 results and the error body', () => {
      expect(doc.components.securitySchemes).toEqual({
        bearerAuth: { type: 'http', scheme: 'bearer' },
      });
      const put = doc.paths['/external/api/products']!.put!;
      expect(put.parameters).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
        ]),
      );
      expect(put.responses).toMatchObject({
        '207': {
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/BatchResults' } },
          },
        },
        '422': {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      });
      const price = doc.components.schemas.Price as { properties: { amount: { type: string } } };
      expect(price.properties.amount.type).toBe('string');
      // Every $ref points at a schema that exists.
      const refs = [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/(\w+)"/g)].map(
        (m) => m[1]!,
      );
      for (const ref of refs) expect(doc.components.schemas).toHaveProperty(ref);
    });

    it('documents the query parameters of every list read, and the simulator takes them', async () => {
      const EXAMPLE: Record<string, string> = {
        page: '2',
        pageSize: '10',
        sinceId: '0000000005',
        createdAfter: '2024-01-02T00:00:00Z',
        createdBefore: '2024-01-20',
        from: '2024-01-03',
        to: '2024-01-09',
      };
      const FILTERS: Record<string, string[]> = {
        'orders.get': ['sinceId', 'createdAfter', 'createdBefore'],
        'reports.zReport.get': ['from', 'to'],
        'statistics.revenue.get': ['from', 'to'],
      };
      const reads = operationsOf(doc).filter(
        ({ method, id }) => method === 'GET' && id !== 'ageGroupCode.get',
      );
      const ids = reads.map((r) => r.id);
      expect(ids).toEqual(
        expect.arrayContaining(['orders.get', 'reports.zReport.get', 'microshops.get']),
      );
      if (listing === 'A') {
        expect(ids).toEqual(
          expect.arrayContaining(['products.get', 'stores.get', 'statistics.revenue.get']),
        );
      }
      for (const { id, path, op } of reads) {
        const params = op.parameters as { name: string; in: string; description: string }[];
        expect([id, params.map((p) => p.name)]).toEqual([
          id,
          ['page', 'pageSize', ...(FILTERS[id] ?? [])],
        ]);
        for (const param of params) {
          expect(param.in).toBe('query');
          expect(param.description).not.toBe('');
          const answer = await call(sim, 'GET', `${path}?${param.name}=${EXAMPLE[param.name]}`);
          expect([id, param.name, answer.status]).toEqual([id, param.name, 200]);
        }
      }
    });

    it('serves the same document as YAML', async () => {
      const answer = await call(sim, 'GET', '/openapi.yaml', { token: null });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toContain('yaml');
      expect(parse(answer.body as string)).toEqual(doc);
    });
  });
}
