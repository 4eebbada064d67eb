/**
 * Custom transforms: TypeScript functions registered by name, which a pipeline names in a field's
 * `transform`. Config never carries code; it can only pick from what the project registered here.
 */

/** What a transform sees besides the value: the whole record's fields (read-only). */
export interface TransformContext {
  fields: Readonly<Record<string, string>>;
}

/**
 * Takes the (trimmed) text and returns the new text; `undefined` means "no value". Throw a
 * TransformRejection to reject the record with a message that says what was expected.
 */
export type Transform = (value: string, context: TransformContext) => string | undefined;

export class TransformRejection extends Error {}

const REGISTRY = new Map<string, Transform>();

export function registerTransform(name: string, transform: Transform): void {
  if (REGISTRY.has(name)) throw new Error(`a transform named "${name}" is already registered`);
  REGISTRY.set(name, transform);
}

export function findTransform(name: string): Transform | undefined {
  return REGISTRY.get(name);
}

export function transformNames(): string[] {
  return [...REGISTRY.keys()].sort();
}
