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

    it('serves the same document as YAML', async () => {
      const answer = await call(sim, 'GET', '/openapi.yaml', { token: null });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toContain('yaml');
      expect(parse(answer.body as string)).toEqual(doc);
    });
  });
}
