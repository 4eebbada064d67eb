/**
 * A run against a described platform whose schemas are stricter than Ferry's assumptions, through
 * the CLI in this process (main()) and the simulator over real TCP: the records whose payloads break the
 * description are rejected (the run report names them), the rest are delivered, and an amount the
 * description types as a number reaches the platform as a JSON number with every digit.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { InterfaceCheck } from '../../src/pipeline/contract/interface-check.js';
import type { RunReport } from '../../src/runs/run-report.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { STRICT, STRICT_PIPELINE, STRICT_ROWS } from '../pipeline/strict-contract.js';
import { TEST_REDIS_URL, deleteKeys, uniquePrefix } from '../helpers/redis.js';
import { runFerryHere as runFerry } from '../queue/cli-process.js';
import { expectNothingOpen, tempDir } from '../queue/delivery-fixtures.js';

const prefix = uniquePrefix('openapi-payloads');
const dir = tempDir('openapi-payloads');
let sim: RunningSimulator;
let config: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 7, keepBodies: true });
  const pipelines = join(dir.path, 'pipelines');
  mkdirSync(pipelines);
  writeFileSync(join(pipelines, 'strict.yaml'), stringify(STRICT_PIPELINE));
  config = join(dir.path, 'ferry.yaml');
  writeFileSync(
    config,
    stringify({
      redis: { url: TEST_REDIS_URL, prefix },
      interface: {
        baseUrl: sim.url,
        auth: { type: 'bearer', token: 'dev-token' },
        openapi: STRICT,
      },
      pipelines: { dir: pipelines },
      delivery: { concurrency: 2, backoff: { baseMs: 20, capMs: 200 }, reportsDir: dir.path },
      log: { level: 'warn', format: 'json' },
    }),
  );
});

afterAll(async () => {
  await sim.close();
  await deleteKeys(prefix);
  dir.remove();
  await expectNothingOpen();
});

describe('payloads validated against the description, delivered over TCP', () => {
  it('interface check passes a decimal mapped to a number property', async () => {
    const result = await runFerry(['interface', 'check', '--json'], config);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as InterfaceCheck).problems).toEqual([]);
  });

  it('rejects what breaks the schema, delivers the rest, amounts digit for digit', async () => {
    const file = join(dir.path, 'export.csv');
    writeFileSync(file, STRICT_ROWS.join('\n') + '\n');
    const run = await runFerry(['run', 'strict', '--file', file, '--wait', '--json'], config);
    expect(run.code, run.stderr).toBe(1); // records rejected
    const report = JSON.parse(run.stdout) as RunReport;
    expect(report.status).toBe('partial');
    expect(report.operations['products.put']).toMatchObject({ planned: 1, delivered: 1 });
    expect(report.operations['campaigns.put']).toMatchObject({ planned: 2, delivered: 2 });
    expect(report.errors.map((e) => [e.line, e.field, e.path])).toEqual([
      [3, 'EAN', '/gtin'],
      [4, 'name', '/name'],
      [5, 'EAN', '/gtin'],
      [7, 'type', '/adjustmentType'],
      [8, 'amount', '/value'],
    ]);
    const sent = sim.requests().filter((r) => r.operationId === 'campaigns.put');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toBe(
      '[{"adjustmentType":"percent","externalId":"C1","name":"Spring","value":12345678901234567.89},' +
        '{"adjustmentType":"fixed","externalId":"C4","name":"Winter","value":0.07}]',
    );
    expect(sim.state('campaigns')).toHaveLength(2);
    expect(sim.state('products')).toMatchObject([{ externalId: 'P1', gtin: '12345678' }]);
  });
});
