/**
 * Where a description says its answers put their words and how its reads page
 * (src/interface/openapi/described-answers.ts): an error object wrapped in a property, a 207
 * result with a boolean outcome and another key, a next URL one object down, page parameters.
 */
import { describe, expect, it } from 'vitest';
import type { DescribedOperation } from '../../src/interface/openapi/described-operations.js';
import {
  describedAnswers,
  describedPaging,
} from '../../src/interface/openapi/described-answers.js';

const json = (schema: Record<string, unknown>, headers: string[] = []) => ({
  mediaType: 'application/json',
  schema,
  headers,
});

function op(partial: Partial<DescribedOperation>): DescribedOperation {
  return {
    method: 'PUT',
    path: '/x',
    pointer: '/paths/~1x/put',
    parameters: [],
    requestSchema: undefined,
    requestRequired: false,
    security: [],
    scopes: [],
    open: false,
    responses: {},
    ...partial,
  };
}

describe('described answers', () => {
  it('reads a wrapped error object and a 207 result with a boolean outcome', () => {
    const error = {
      type: 'object',
      properties: {
        error: {
          type: 'object',
          properties: {
            code: { type: 'string' },
            message: { type: 'string' },
            details: {
              type: 'array',
              items: { type: 'object', properties: { field: { type: 'string' } } },
            },
          },
        },
      },
    };
    const result = {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          sku: { type: 'string' },
          success: { type: 'boolean' },
          reason: { type: 'string' },
        },
      },
    };
    const answers = describedAnswers(
      op({ responses: { default: json(error), '207': json(result) } }),
      'externalId',
    );
    expect(answers).toEqual({
      words: ['error.message'],
      errors: 'error.details',
      pointer: 'field',
      results: '',
      resultKey: 'sku',
      resultStatus: 'success',
      resultErrors: 'reason',
    });
  });

  it('says nothing of an operation that describes no answers', () => {
    expect(describedAnswers(op({ responses: { '200': json({ type: 'object' }) } }), 'x')).toBe(
      undefined,
    );
  });
});

describe('described paging', () => {
  it('finds a next URL one object down, and page and size parameters', () => {
    const answer = {
      type: 'object',
      properties: {
        records: { type: 'array', items: {} },
        links: { type: 'object', properties: { next: { type: 'string' } } },
      },
    };
    const paging = describedPaging(
      op({
        method: 'GET',
        parameters: [
          { name: 'per_page', in: 'query', required: false, schema: { maximum: 250 } },
          { name: 'pageNumber', in: 'query', required: false, schema: {} },
        ],
        responses: { '200': json(answer) },
      }),
    );
    expect(paging).toEqual({
      items: 'records',
      next: 'links.next',
      page: 'pageNumber',
      size: 'per_page',
      maxSize: 250,
    });
  });
});
