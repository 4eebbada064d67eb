/** The shipped catalog pipeline with all four value guards, in a folder of its own for a test. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../../src/config/load-config.js';

const GUARDS = `guards:
  changedShare: { field: prices.0.amount, max: 0.2 }
  valueChange: { field: prices.0.amount, maxFactor: 10 }
  emptied: { fields: [description], max: 0.2 }
  rows: { minShareOfLast: 0.5 }
`;

/** Writes <dir>/pipelines/catalog.yaml; returns the folder, for config.pipelines.dir. */
export function guardedCatalog(dir: string): string {
  const shipped = readFileSync(resolve(PROJECT_ROOT, 'config/pipelines/catalog.yaml'), 'utf8');
  const folder = join(dir, 'pipelines');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'catalog.yaml'), shipped.replace(/^guards:\n( {2}.*\n)+/m, GUARDS));
  return folder;
}
