/**
 * The contract classifier: one pinned description and variants that differ from it in one way
 * each; every rule's change is named by its JSON pointer and classified for what Ferry uses.
 */
import { describe, expect, it } from 'vitest';
import { diffContract, type ContractUsage } from '../../src/interface/openapi/contract-diff.js';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function pinned(): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 'Platform', version: '1.0.0' },
    security: [{ bearer: [] }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths: {
      '/external/api/products': {
        put: {
          operationId: 'putProducts',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'array',
                  maxItems: 100,
                  items: {
                    type: 'object',
                    required: ['externalId', 'name'],
                    properties: {
                      externalId: { type: 'string' },
                      name: { type: 'string', maxLength: 200 },
                      vendor: { type: 'string' },
                      gtin: { type: ['string', 'null'] },
                      status: { type: 'string', enum: ['active', 'archived'] },
                      note: { type: 'string' },
                    },
                  },
                },
              },
            },
          },
        },
        delete: {
          parameters: [
            { name: 'ids', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          ],
        },
      },
      '/external/api/categories': {
        put: {
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    categories: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: { externalId: { type: 'string' }, name: { type: 'string' } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}

const PRODUCTS = '/paths/~1external~1api~1products/put';
const ITEM = `${PRODUCTS}/requestBody/content/application~1json/schema/items`;
const USAGE: ContractUsage = {
  'products.put': { sends: ['externalId', 'name', 'gtin', 'status'], batch: 100 },
  'products.delete': { sends: ['externalId'], batch: 100 },
};

function variant(change: (doc: Doc) => void): Doc {
  const doc = pinned();
  change(doc);
  return doc;
}

const item = (doc: Doc) =>
  doc.paths['/external/api/products'].put.requestBody.content['application/json'].schema.items;

const summary = (d: ReturnType<typeof diffContract>) => ({
  breaking: d.breaking.map((c) => [c.kind, c.path]),
  nonBreaking: d.nonBreaking.map((c) => [c.kind, c.path]),
});

describe('diffContract', () => {
  it('finds nothing between a description and itself', () => {
    expect(diffContract(pinned(), pinned(), USAGE)).toEqual({ breaking: [], nonBreaking: [] });
  });

  it('an operation Ferry uses removed is breaking; one it does not use is not', () => {
    const to = variant((d) => delete d.paths['/external/api/categories']);
    expect(summary(diffContract(pinned(), to, USAGE))).toEqual({
      breaking: [],
      nonBreaking: [['operation_removed', '/paths/~1external~1api~1categories/put']],
    });
    const gone = variant((d) => delete d.paths['/external/api/products'].put);
    expect(summary(diffContract(pinned(), gone, USAGE)).breaking).toEqual([
      ['operation_removed', PRODUCTS],
    ]);
  });

  it('an operation moved to another path or method is breaking, named where it is now', () => {
    const to = variant((d) => {
      d.paths['/external/api/v2/products'] = { post: d.paths['/external/api/products'].put };
      delete d.paths['/external/api/products'].put;
    });
    const diff = diffContract(pinned(), to, USAGE);
    expect(summary(diff)).toEqual({
      breaking: [['operation_moved', '/paths/~1external~1api~1v2~1products/post']],
      nonBreaking: [],
    });
    expect(diff.breaking[0]!.message).toContain('to POST /external/api/v2/products');
  });

  it('a new required property is breaking unless Ferry sends it already', () => {
    const to = variant((d) => item(d).required.push('vendor'));
    const diff = diffContract(pinned(), to, USAGE);
    expect(summary(diff).breaking).toEqual([['required_property_added', `${ITEM}/required`]]);
    expect(diff.breaking[0]!.message).toBe(
      'products.put vendor: now required; Ferry does not send it',
    );
    const sent = variant((d) => item(d).required.push('gtin'));
    expect(summary(diffContract(pinned(), sent, USAGE))).toEqual({
      breaking: [],
      nonBreaking: [['required_property_added', `${ITEM}/required`]],
    });
  });

  it('a property removed is breaking where Ferry sends it', () => {
    const sent = variant((d) => delete item(d).properties.gtin);
    expect(summary(diffContract(pinned(), sent, USAGE)).breaking).toEqual([
      ['property_removed', `${ITEM}/properties/gtin`],
    ]);
    const unsent = variant((d) => delete item(d).properties.note);
    expect(summary(diffContract(pinned(), unsent, USAGE))).toEqual({
      breaking: [],
      nonBreaking: [['property_removed', `${ITEM}/properties/note`]],
    });
  });

  it('a type narrowed is breaking where Ferry sends it; widened is not', () => {
    const narrowed = variant((d) => (item(d).properties.gtin.type = 'string'));
    const diff = diffContract(pinned(), narrowed, USAGE);
    expect(summary(diff).breaking).toEqual([['type_narrowed', `${ITEM}/properties/gtin`]]);
    expect(diff.breaking[0]!.message).toContain('null no longer accepted');
    const widened = variant((d) => (item(d).properties.name.type = ['string', 'null']));
    expect(summary(diffContract(pinned(), widened, USAGE))).toEqual({
      breaking: [],
      nonBreaking: [['type_widened', `${ITEM}/properties/name`]],
    });
  });

  it('an enum value removed is breaking; one added is not', () => {
    const removed = variant((d) => (item(d).properties.status.enum = ['active']));
    expect(summary(diffContract(pinned(), removed, USAGE)).breaking).toEqual([
      ['enum_value_removed', `${ITEM}/properties/status/enum`],
    ]);
    const added = variant((d) => item(d).properties.status.enum.push('draft'));
    expect(summary(diffContract(pinned(), added, USAGE))).toEqual({
      breaking: [],
      nonBreaking: [['enum_value_added', `${ITEM}/properties/status/enum`]],
    });
  });

  it("maxItems below Ferry's batch is breaking; lowered but still above it is not", () => {
    const schema = (d: Doc) =>
      d.paths['/external/api/products'].put.requestBody.content['application/json'].schema;
    const below = variant((d) => (schema(d).maxItems = 50));
    const diff = diffContract(pinned(), below, USAGE);
    expect(summary(diff).breaking).toEqual([
      ['max_items_lowered', `${PRODUCTS}/requestBody/content/application~1json/schema/maxItems`],
    ]);
    expect(diff.breaking[0]!.message).toContain('Ferry sends up to 100 a request');
    const above = diffContract(pinned(), below, { 'products.put': { batch: 40 } });
    expect(summary(above).breaking).toEqual([]);
    expect(summary(above).nonBreaking.map(([k]) => k)).toEqual(['max_items_lowered']);
  });

  it('a constraint narrowed on a sent property is breaking; relaxed is not', () => {
    const narrowed = variant((d) => (item(d).properties.name.maxLength = 80));
    expect(summary(diffContract(pinned(), narrowed, USAGE)).breaking).toEqual([
      ['constraint_narrowed', `${ITEM}/properties/name/maxLength`],
    ]);
    const relaxed = variant((d) => (item(d).properties.name.maxLength = 500));
    expect(summary(diffContract(pinned(), relaxed, USAGE)).nonBreaking).toEqual([
      ['constraint_relaxed', `${ITEM}/properties/name/maxLength`],
    ]);
  });

  it('a new required security scheme is breaking for the operations Ferry uses', () => {
    const to = variant((d) => {
      d.components.securitySchemes.apiKey = { type: 'apiKey', in: 'header', name: 'X-Key' };
      d.security = [{ apiKey: [] }];
    });
    const diff = diffContract(pinned(), to, USAGE);
    expect(summary(diff).breaking).toEqual([
      ['security_changed', '/security'],
      ['security_changed', '/security'],
    ]);
    expect(diff.breaking.map((c) => c.operationId).sort()).toEqual([
      'products.delete',
      'products.put',
    ]);
    const redefined = variant((d) => (d.components.securitySchemes.bearer.scheme = 'basic'));
    expect(summary(diffContract(pinned(), redefined, USAGE)).breaking[0]).toEqual([
      'security_changed',
      '/components/securitySchemes/bearer',
    ]);
  });

  it('a new required query parameter is breaking', () => {
    const to = variant((d) =>
      d.paths['/external/api/products'].delete.parameters.push({
        name: 'reason',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      }),
    );
    expect(summary(diffContract(pinned(), to, USAGE)).breaking).toEqual([
      ['parameter_required_added', '/paths/~1external~1api~1products/delete/parameters/1'],
    ]);
  });

  it('a body shape changed (an array into an envelope) is breaking', () => {
    const to = variant((d) => {
      const media = d.paths['/external/api/products'].put.requestBody.content['application/json'];
      media.schema = { type: 'object', properties: { products: media.schema } };
    });
    expect(summary(diffContract(pinned(), to, USAGE)).breaking).toEqual([
      ['body_shape_changed', `${PRODUCTS}/requestBody`],
    ]);
  });

  it('new optional properties, new operations and descriptions are not breaking', () => {
    const to = variant((d) => {
      item(d).properties.weight = { type: 'number' };
      item(d).properties.name.description = 'The product name';
      d.paths['/external/api/stores'] = { get: { summary: 'stores' } };
      d.paths['/external/api/products'].put.summary = 'Upsert products';
    });
    expect(summary(diffContract(pinned(), to, USAGE))).toEqual({
      breaking: [],
      nonBreaking: [
        ['description_changed', PRODUCTS],
        ['property_added', `${ITEM}/properties/weight`],
        ['description_changed', `${ITEM}/properties/name`],
        ['operation_added', '/paths/~1external~1api~1stores/get'],
      ],
    });
  });

  it('changes in an envelope are named inside it; without usage every operation counts', () => {
    const to = variant((d) => {
      const schema =
        d.paths['/external/api/categories'].put.requestBody.content['application/json'].schema;
      schema.properties.categories.maxItems = 10;
    });
    expect(summary(diffContract(pinned(), to)).breaking).toEqual([
      [
        'max_items_lowered',
        '/paths/~1external~1api~1categories/put/requestBody/content/application~1json/schema/properties/categories/maxItems',
      ],
    ]);
  });
});
