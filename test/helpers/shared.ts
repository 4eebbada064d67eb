import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../../src/config/load-config.js';

/**
 * shared/ (the interface spec and the ERP fixtures) sits beside the project's root; a checkout
 * elsewhere uses the copy in test/fixtures/shared, which `.ci/run` checks against ../shared
 * wherever that exists. FERRY_SHARED_DIR points at another one.
 */
const BESIDE = resolve(PROJECT_ROOT, '../shared');
export const SHARED_DIR = process.env.FERRY_SHARED_DIR
  ? resolve(PROJECT_ROOT, process.env.FERRY_SHARED_DIR)
  : existsSync(BESIDE)
    ? BESIDE
    : resolve(PROJECT_ROOT, 'test/fixtures/shared');

export function sharedPath(...parts: string[]): string {
  const path = resolve(SHARED_DIR, ...parts);
  if (!existsSync(path)) throw new Error(`${path} is missing (shared/ is read from ${SHARED_DIR})`);
  return path;
}
