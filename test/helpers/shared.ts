import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../../src/config/load-config.js';

/** shared/ (the spec, the design and the ERP fixtures) sits beside the project's root. */
export const SHARED_DIR = resolve(PROJECT_ROOT, process.env.FERRY_SHARED_DIR ?? '../shared');

export function sharedPath(...parts: string[]): string {
  const path = resolve(SHARED_DIR, ...parts);
  if (!existsSync(path))
    throw new Error(`${path} is missing: the tests need shared/ beside the project`);
  return path;
}
