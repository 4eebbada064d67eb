/**
 * Swagger 2.0 read as the OpenAPI 3.0 document it states (src/interface/openapi/swagger2.ts):
 * definitions, body and formData parameters, parameter types as schemas, produces/consumes,
 * securityDefinitions (an `application` flow is client credentials; basic is HTTP basic),
 * x-nullable, basePath; another Swagger version refused naming the pointer; a breaking change of
 * a pinned 2.0 description found as of a 3.0 one.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { describedOperations } from '../../src/interface/openapi/described-operations.js';
import {
  describe as describeText,
  loadDescription,
} from '../../src/interface/openapi/load-description.js';
import { matchCatalog } from '../../src/interface/openapi/match-catalog.js';
import { OpenApiError } from '../../src/interface/openapi/openapi-error.js';
import { ferryHere } from '../helpers/ferry-here.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { tempDir } from '../queue/delivery-fixtures.js';

const SWAGGER = resolve(PROJECT_ROOT, 'test/fixtures/openapi/swagger-2.0-pages.yaml');

describe('a Swagger 2.0 description', () => {
  it('is read as the 3.0 document it states, dereferenced once', async () => {
    const d = await loadDescription(SWAGGER);
    expect({ swagger: d.swagger, dialect: d.dialect, title: d.title }).toEqual({
      swagger: '2.0',
      dialect: '3.0',
      title: 'Swagger Two Platform',
    });
    expect(d.doc.servers).toEqual([{ url: 'https://swagger-two.example/' }]);
    const ops = matchCatalog(describedOperations(d.doc)).matched;
    const put = ops.get('categories.put')!;
    expect(put.requestRequired).toBe(true);
    expect(put.requestSchema).toMatchObject({ type: 'array', maxItems: 20 });
    const category = (put.requestSchema!.items as { properties: Record<string, unknown> })
      .properties;
    expect(category.parentExternalId).toEqual({ type: 'string', nullable: true });
    expect(put.responses['400']).toMatchObject({ mediaType: 'application/json' });
    expect(ops.get('products.get')!.parameters).toEqual([
      { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
      {
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 5 },
      },
    ]);
    const prices = ops.get('products.prices.patch')!;
    expect(prices.parameters[0]).toMatchObject({ name: 'productId', in: 'path', required: true });
    expect(prices.security).toEqual([['ApiKey']]);
    expect(d.doc.components).toMatchObject({
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
    });
  });

  it('states OAuth2 client credentials, basic, form fields and other media types as 3.0 does', async () => {
    const text = JSON.stringify({
      swagger: '2.0',
      info: { title: 'T', version: '1' },
      basePath: '/shop',
      securityDefinitions: {
        Client: {
          type: 'oauth2',
          flow: 'application',
          tokenUrl: '/oauth/token',
          scopes: { w: 'write' },
        },
        Basic: { type: 'basic' },
      },
      paths: {
        '/external/api/partner': {
          post: {
            consumes: ['application/x-www-form-urlencoded'],
            produces: ['application/vnd.shop+json'],
            security: [{ Client: ['w'] }, { Basic: [] }],
            parameters: [{ name: 'name', in: 'formData', type: 'string', required: true }],
            responses: { '201': { description: 'ok', schema: { type: 'object' } } },
          },
        },
      },
    });
    const d = await describeText('inline.json', text);
    expect(d.doc.servers).toEqual([{ url: '/shop' }]);
    expect(d.doc.components).toMatchObject({
      securitySchemes: {
        Client: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: { w: 'write' } } },
        },
        Basic: { type: 'http', scheme: 'basic' },
      },
    });
    const post = (d.doc.paths as Record<string, { post: Record<string, unknown> }>)[
      '/external/api/partner'
    ]!.post;
    expect(post.requestBody).toEqual({
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            properties: { name: { type: 'string' } },
            required: ['name'],
          },
        },
      },
    });
    expect(post.responses).toEqual({
      '201': {
        description: 'ok',
        content: { 'application/vnd.shop+json': { schema: { type: 'object' } } },
      },
    });
    expect(describedOperations(d.doc)[0]!.security).toEqual([['Client'], ['Basic']]);
  });

  it('another Swagger version is refused, naming the pointer', async () => {
    const error = await describeText('old.json', '{"swagger": "1.2", "paths": {}}').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OpenApiError);
    expect((error as Error).message).toContain('/swagger');
    expect((error as Error).message).toContain('Swagger "1.2": expected "2.0"');
  });
});

describe('a pinned Swagger 2.0 description', () => {
  const prefix = uniquePrefix('swagger2-pin');
  const dir = tempDir('swagger2-pin');
  afterAll(async () => {
    await deleteKeys(prefix);
    dir.remove();
  });

  it('names a breaking change: a removed operation the pipeline uses', async () => {
    const file = join(dir.path, 'platform.yaml');
    copyFileSync(SWAGGER, file);
    const pipelines = join(dir.path, 'pipelines');
    mkdirSync(pipelines);
    copyFileSync(
      join(PROJECT_ROOT, 'config/pipelines/catalog.yaml'),
      join(pipelines, 'catalog.yaml'),
    );
    const configFile = join(dir.path, 'ferry.yaml');
    writeFileSync(
      configFile,
      stringify({
        redis: { url: TEST_REDIS_URL, prefix },
        interface: {
          baseUrl: 'http://127.0.0.1:9',
          openapi: file,
          auth: { type: 'apiKey', header: 'X-Api-Key', key: 'k' },
        },
        pipelines: { dir: pipelines },
        log: { level: 'silent' },
      }),
    );
    const env = { PATH: process.env.PATH, FERRY_CONFIG: configFile };
    const pull = await ferryHere(['interface', 'pull', '--json'], { env });
    expect(pull.code, pull.stderr).toBe(0);
    // The platform drops its DELETE of products.
    const doc = parse(readFileSync(file, 'utf8')) as {
      paths: Record<string, { delete?: unknown }>;
    };
    delete doc.paths['/external/api/products']!.delete;
    writeFileSync(file, stringify(doc));
    const diff = await ferryHere(['interface', 'diff', '--json'], { env });
    expect(diff.code, diff.stderr).toBe(1);
    const changes = JSON.parse(diff.stdout) as {
      breaking: { operationId?: string; kind: string }[];
    };
    expect(changes.breaking).toEqual([
      expect.objectContaining({ operationId: 'products.delete', kind: 'operation_removed' }),
    ]);
  });
});
