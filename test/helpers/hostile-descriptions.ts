/** Hostile descriptions built in code, for test/interface/description-limits.test.ts and bench/hostile-inputs.ts. */

/** A description (JSON) whose products PUT takes an array of `item`, with `schemas` as components. */
export function descriptionWith(item: unknown, schemas: Record<string, unknown> = {}): string {
  const body = { content: { 'application/json': { schema: { type: 'array', items: item } } } };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'hostile', version: '1' },
    paths: { '/external/api/products': { put: { requestBody: body } } },
    components: { schemas },
  });
}

/** a0..aN, each with two properties that point at the one below (an integer): 2^N paths, N+1 schemas. */
export function exponentialRefs(levels: number): string {
  const schemas: Record<string, unknown> = { [`a${levels}`]: { type: 'integer' } };
  for (let i = 0; i < levels; i++) {
    const below = { $ref: `#/components/schemas/a${i + 1}` };
    schemas[`a${i}`] = { type: 'object', properties: { left: below, right: below } };
  }
  return descriptionWith({ $ref: '#/components/schemas/a0' }, schemas);
}
