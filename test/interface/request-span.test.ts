/** What a request's span may show of its URL: no credential, in its query or anywhere. */
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/interface/request-span.js';

describe('redactUrl', () => {
  it('blanks query parameters that carry credentials, whatever their case', () => {
    expect(
      redactUrl('https://shop.example/api/products?api_key=abc123&page=2&X-Token=t0k&sig=zz', []),
    ).toBe(
      'https://shop.example/api/products?api_key=[redacted]&page=2&X-Token=[redacted]&sig=[redacted]',
    );
  });

  it('blanks a configured secret wherever it appears, and leaves a plain URL as it was', () => {
    expect(redactUrl('https://shop.example/s3cr3t-tenant/products', ['s3cr3t'])).toBe(
      'https://shop.example/[redacted]-tenant/products',
    );
    expect(redactUrl('https://shop.example/products?ids=a,b', ['s3cr3t'])).toBe(
      'https://shop.example/products?ids=a,b',
    );
  });
});
