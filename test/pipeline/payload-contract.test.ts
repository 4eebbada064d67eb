/**
 * Payloads checked against the platform's description at plan time (interface.openapi): a record
 * whose payload breaks the request schema is rejected naming file, line, source column, JSON
 * pointer and the rule; the other records go on; amounts of a `number` property are written as
 * JSON numbers from their digits, and one with more decimals than multipleOf allows is rejected.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planPipeline } from '../../src/pipeline/plan-pipeline.js';
import type { Plan } from '../../src/pipeline/types.js';
import { jsonArrayItems } from '../../src/base/json-array-items.js';
import { narrowRequest } from '../../src/queue/request-body.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { configWith, definitionOf, tempDir } from './helpers.js';
import { STRICT, STRICT_PIPELINE, STRICT_ROWS } from './strict-contract.js';

const prefix = uniquePrefix('payload-contract');
const dir = tempDir();
let redis: Redis;
beforeAll(() => {
  redis = new Redis(TEST_REDIS_URL);
});
afterAll(async () => {
  redis.disconnect();
  dir.remove();
  await deleteKeys(prefix);
});

async function planStrict(openapi: string | undefined): Promise<Plan> {
  const config = configWith(openapi ? { interface: { openapi } } : {});
  return planPipeline({
    definition: definitionOf('strict', STRICT_PIPELINE, config),
    sourceOverride: { file: dir.file(`rows-${Math.random()}.csv`, STRICT_ROWS.join('\n')) },
    redis,
    prefix,
    config,
  });
}

const bodyOf = (plan: Plan, operationId: string): string =>
  plan.stages
    .flatMap((s) => s.requests)
    .filter((r) => r.operationId === operationId)
    .map((r) => r.payloadsJson)
    .join('');

describe('payloads against the described request schema', () => {
  it('rejects the records that break it, naming line, column, pointer and rule; plans the rest', async () => {
    const plan = await planStrict(STRICT);
    const errors = plan.errors.map(({ line, field, path, message, key }) => ({
      line,
      field,
      path,
      message,
      key,
    }));
    expect(errors).toEqual([
      {
        line: 3,
        field: 'EAN',
        path: '/gtin',
        message:
          'EAN: must match ^[0-9]{8,14}$, got "12AB34" (/gtin in the products.put request schema)',
        key: 'P2',
      },
      {
        line: 4,
        field: 'name',
        path: '/name',
        message:
          'name: must be at most 20 characters, got "A name far longer than twenty" (29) (/name in the products.put request schema)',
        key: 'P3',
      },
      {
        line: 5,
        field: 'EAN',
        path: '/gtin',
        message:
          'EAN: required, but the mapping gave no value (/gtin in the products.put request schema)',
        key: 'P4',
      },
      {
        line: 7,
        field: 'type',
        path: '/adjustmentType',
        message:
          'type: must be one of percent, fixed, got "bogus" (/adjustmentType in the campaigns.put request schema)',
        key: 'C2',
      },
      {
        line: 8,
        field: 'amount',
        path: '/value',
        message:
          'amount: must be a multiple of 0.01 (at most 2 decimals), got 1.234; it is not rounded (/value in the campaigns.put request schema)',
        key: 'C3',
      },
    ]);
    expect(plan.errors.every((e) => e.file.endsWith('.csv'))).toBe(true);
    expect(plan.operations).toEqual({
      'products.put': { items: 1, requests: 1 },
      'campaigns.put': { items: 2, requests: 1 },
    });
    // Amounts as JSON numbers, digit for digit (a double would make ...568 of the first).
    const campaigns = bodyOf(plan, 'campaigns.put');
    expect(campaigns).toContain('"value":12345678901234567.89}');
    expect(campaigns).toContain('"value":0.07}');
    expect(bodyOf(plan, 'products.put')).toContain('"gtin":"12345678"');
  });

  it('without a description the assumed bodies are planned as before', async () => {
    const plan = await planStrict(undefined);
    expect(plan.errors).toEqual([]);
    expect(plan.operations['products.put']?.items).toBe(4);
    expect(bodyOf(plan, 'campaigns.put')).toContain('"value":"12345678901234567.89"');
  });

  it('a part of a request keeps its numbers as planned (cut from the JSON, never re-parsed)', async () => {
    const plan = await planStrict(STRICT);
    const request = plan.stages
      .flatMap((s) => s.requests)
      .find((r) => r.operationId === 'campaigns.put');
    expect(request?.items).toHaveLength(2);
    const part = narrowRequest(request!, [request!.items[0]!]);
    expect(part.payloadsJson).toBe(
      '[{"adjustmentType":"percent","externalId":"C1","name":"Spring","value":12345678901234567.89}]',
    );
  });

  it('cuts array elements whose strings hold brackets, commas, quotes and backslashes', () => {
    const elements = [
      '{"a":"],[{,}\\"","b":[1,{"c":"\\\\"}]}',
      '12345678901234567.89',
      '"x,y"',
      '[[],{}]',
    ];
    expect(jsonArrayItems(`[${elements.join(',')}]`)).toEqual(elements);
    expect(jsonArrayItems(' [ ] ')).toEqual([]);
  });
});
