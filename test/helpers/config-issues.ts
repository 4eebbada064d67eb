import { expect } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';

/** The issues of the ConfigError `fn` throws (it must throw one). */
export function issuesOf(fn: () => unknown): { path: string; message: string }[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).issues];
  }
  throw new Error('expected a ConfigError');
}
