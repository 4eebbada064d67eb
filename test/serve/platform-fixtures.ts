/**
 * Two platforms for the console's tests: `north` on the harness's simulator, `south` on one of
 * its own, and the catalog pipeline delivering to both (`catalog@north`, `catalog@south`); tokens
 * of every platform (the console fixtures' viewer and operator) and of north only.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FerryConfig } from '../../src/config/schema.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { configSchema } from '../../src/config/schema.js';
import type { DeliveryHarness } from '../queue/delivery-fixtures.js';
import { consoleTestConfig } from './console-fixtures.js';

export const NORTH_VIEWER = 'north-viewer-token-0123456789';
export const NORTH_OPERATOR = 'north-operator-token-0123456789';

/** A pipelines folder of the catalog on north and south, and the stores pipeline on default. */
export function writeTwoPlatformPipelines(dir: string): string {
  const pipelines = join(dir, 'pipelines');
  mkdirSync(pipelines, { recursive: true });
  const catalog = readFileSync(join(PROJECT_ROOT, 'config/pipelines/catalog.yaml'), 'utf8');
  writeFileSync(join(pipelines, 'catalog.yaml'), `platforms: [north, south]\n${catalog}`);
  copyFileSync(join(PROJECT_ROOT, 'config/pipelines/stores.yaml'), join(pipelines, 'stores.yaml'));
  return pipelines;
}

/** The console test config with platforms north (the harness's simulator) and south. */
export function twoPlatformConfig(
  h: Pick<DeliveryHarness, 'prefix' | 'dir' | 'sim'>,
  southUrl: string,
): FerryConfig {
  const base = consoleTestConfig(h);
  const auth = { type: 'bearer', token: 'dev-token' };
  return configSchema.parse({
    ...base,
    pipelines: { dir: writeTwoPlatformPipelines(h.dir) },
    platforms: {
      north: { baseUrl: h.sim.url, auth },
      south: { baseUrl: southUrl, auth },
    },
    serve: {
      ...base.serve,
      tokens: [
        ...base.serve.tokens,
        { name: 'north-viewer', role: 'viewer', token: NORTH_VIEWER, platforms: ['north'] },
        { name: 'north-op', role: 'operator', token: NORTH_OPERATOR, platforms: ['north'] },
      ],
    },
  });
}
