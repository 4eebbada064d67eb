import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { configSchema, type FerryConfig } from '../../src/config/schema.js';
import type { PipelineDefinition } from '../../src/pipeline/definition/definition-types.js';
import { compilePipeline } from '../../src/pipeline/definition/load-pipeline.js';
import { pipelineSchema } from '../../src/pipeline/definition/pipeline-schema.js';
import type { DeliveryItem, Plan } from '../../src/pipeline/types.js';
import type { SourceRecord } from '../../src/base/records.js';
import { TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

export const testConfig: FerryConfig = configSchema.parse({});

export function configWith(patch: Record<string, unknown>): FerryConfig {
  return configSchema.parse(patch);
}

/** A pipeline from a plain object (as its YAML would give), compiled against the config. */
export function definitionOf(
  name: string,
  file: unknown,
  config: FerryConfig = testConfig,
): PipelineDefinition {
  return compilePipeline(name, `${name}.yaml`, pipelineSchema.parse(file), config);
}

export function record(fields: Record<string, string>, line = 2, file = 'test.csv'): SourceRecord {
  return { fields, source: { file, line } };
}

/** A folder of its own under the system's temp dir; remove() deletes it. */
export function tempDir(): {
  path: string;
  file(name: string, content: string | Buffer): string;
  remove(): void;
} {
  const path = mkdtempSync(join(tmpdir(), 'ferry-pipeline-'));
  return {
    path,
    file(name, content) {
      const f = join(path, name);
      writeFileSync(f, content);
      return f;
    },
    remove() {
      rmSync(path, { recursive: true, force: true });
    },
  };
}

/** Every item of a plan, in stage order, with its operation id. */
export function planItems(plan: Plan): (DeliveryItem & { operationId: string })[] {
  return plan.stages.flatMap((s) =>
    s.requests.flatMap((r) => r.items.map((i) => ({ ...i, operationId: r.operationId }))),
  );
}

/**
 * A vendor's description: listing B, allOf, nullable, prices as integer minor units, OAuth2 client
 * credentials, deletes by bare keys, problem+json, cursor pages.
 */
export const VENDOR_MINOR_UNITS = resolve(
  PROJECT_ROOT,
  'test/fixtures/openapi/vendor-minor-units-3.0.json',
);

/** The credential VENDOR_MINOR_UNITS asks for: OAuth2 client credentials, its tokenUrl relative. */
export const VENDOR_AUTH = {
  type: 'oauth2',
  tokenUrl: '/oauth/token',
  clientId: 'dev-client',
  clientSecret: 'dev-secret',
} as const;

/** `dir`/ferry.yaml: the pipelines of `pipelines` against VENDOR_MINOR_UNITS, a prefix of its own. */
/** A config file for the vendor's description; `prefix`: its Redis keys', for the test to remove. */
export function vendorConfigFile(
  dir: string,
  pipelines: string,
  label: string,
): { file: string; prefix: string } {
  const file = join(dir, 'ferry.yaml');
  const prefix = uniquePrefix(label);
  writeFileSync(
    file,
    stringify({
      redis: { url: TEST_REDIS_URL, prefix },
      interface: { listing: 'B', openapi: VENDOR_MINOR_UNITS, auth: VENDOR_AUTH },
      pipelines: { dir: pipelines },
      log: { level: 'silent' },
    }),
  );
  return { file, prefix };
}
