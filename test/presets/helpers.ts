import { resolve } from 'node:path';
import type { Redis } from 'ioredis';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { loadPipeline } from '../../src/pipeline/definition/load-pipeline.js';
import { planPipeline } from '../../src/pipeline/plan-pipeline.js';
import type { Plan } from '../../src/pipeline/types.js';
import { ferryHere } from '../helpers/ferry-here.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { planItems, testConfig } from '../pipeline/helpers.js';

/** A fixture of test/fixtures/presets. */
export function fixture(...parts: string[]): string {
  return resolve(PROJECT_ROOT, 'test/fixtures/presets', ...parts);
}

/** Plans a fixture through a preset (config/pipelines/NAME.yaml) against an empty state. */
export function planPreset(
  name: string,
  file: string,
  redis: Redis,
  prefix: string,
): Promise<Plan> {
  return planPipeline({
    definition: loadPipeline(name, testConfig),
    sourceOverride: { file },
    redis,
    prefix,
    config: testConfig,
  });
}

/** The planned payloads of one operation, by key. */
export function payloads(plan: Plan, operationId: string): Record<string, unknown> {
  return Object.fromEntries(
    planItems(plan)
      .filter((i) => i.operationId === operationId)
      .map((i) => [i.key, i.payload]),
  );
}

/** Items per operation, as `ferry plan --json` counts them. */
export function itemCounts(plan: Plan): Record<string, number> {
  return Object.fromEntries(Object.entries(plan.operations).map(([id, c]) => [id, c.items]));
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `ferry` in this process (test/helpers/ferry-here.ts), as from the project's root. */
export function ferry(args: string[], prefix: string): Promise<CliResult> {
  return ferryHere(args, {
    env: {
      ...process.env,
      REDIS_URL: TEST_REDIS_URL,
      FERRY_PREFIX: prefix,
      FERRY_LOG_LEVEL: 'error',
    },
  });
}
