import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { configSchema } from '../../src/config/schema.js';

/** Keys whose value is a map or a union of shapes: documented as a whole, by their own path. */
const DOCUMENTED_AS_A_WHOLE = new Set([
  'interface.auth',
  'interface.bindings',
  'delivery.pipelineLanes',
]);

function leafPaths(value: unknown, path: string[] = []): string[] {
  const dotted = path.join('.');
  if (DOCUMENTED_AS_A_WHOLE.has(dotted)) return [dotted];
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([k, v]) => leafPaths(v, [...path, k]));
  }
  return [dotted];
}

describe('docs/CONFIGURATION.md', () => {
  it('describes every configuration key', () => {
    const docs = readFileSync(resolve(PROJECT_ROOT, 'docs/CONFIGURATION.md'), 'utf8');
    const paths = leafPaths(configSchema.parse({}));
    expect(paths.length).toBeGreaterThan(20);
    const missing = paths.filter((p) => {
      const last = p.split('.').pop() ?? p;
      // A row names a key in full (`delivery.backoff.baseMs`), as a map (`interface.bindings.<operationId>`),
      // or beside its sibling (`baseMs` / `capMs`).
      return (
        !docs.includes(`\`${p}\``) &&
        !docs.includes(`\`${p}.<`) &&
        !docs.includes(`/ \`${last}\``) &&
        !docs.includes(`\`${last}\` /`)
      );
    });
    expect(missing).toEqual([]);
  });
});
