/**
 * What a run calls its source file: the path as the operator gave it (the pipeline file's
 * `source.file`, or `--file` as typed), never the server's absolute path, and the file itself when
 * a run is started with one but no display name (issue 20). The dead-letter search keeps `?run=`.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { sourceOf } from '../../src/cli/pipeline-options.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { loadPipeline, planPipeline } from '../../src/pipeline/index.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { deadLettersBody } from '../../src/serve/pages/dead-letters-page.js';
import { quietLogger, testConfig, useDeliveryHarness } from './delivery-fixtures.js';

const h = useDeliveryHarness('source-name', { seed: 3 });
const STORES = resolve(PROJECT_ROOT, 'examples/stores.csv');

async function recordedFile(prefix: string, source?: { file: string }): Promise<string | null> {
  const config = testConfig(prefix, h.sim.url, resolve(h.dir, 'reports'));
  const run = await startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline: 'stores',
    ...(source ? { source } : {}),
  });
  return h.redis.hget(deliveryKeys(prefix).run(run.runId), 'file');
}

describe('a run names its source as the operator knows it', () => {
  it("the pipeline's own file as its pipeline file writes it, in the run and its items", async () => {
    expect(await recordedFile(`${h.prefix}-own`)).toBe('examples/stores.csv');
    const config = testConfig(`${h.prefix}-plan`, h.sim.url, resolve(h.dir, 'reports'));
    const plan = await planPipeline({
      definition: loadPipeline('stores', config),
      redis: h.redis,
      config,
    });
    const items = plan.stages.flatMap((s) => s.requests.flatMap((r) => r.items));
    expect(items.length).toBe(8);
    for (const item of items) expect(item.source?.file).toBe('examples/stores.csv');
  });

  it("a folder's files under the folder as its pipeline file writes it", async () => {
    const config = testConfig(`${h.prefix}-folder`, h.sim.url, resolve(h.dir, 'reports'));
    const stores = loadPipeline('stores', config);
    const definition = {
      ...stores,
      source: { ...stores.source, file: undefined, folder: 'examples', pattern: 'stores.csv' },
    };
    const plan = await planPipeline({ definition, redis: h.redis, config });
    const items = plan.stages.flatMap((s) => s.requests.flatMap((r) => r.items));
    expect(items.length).toBe(8);
    for (const item of items) expect(item.source?.file).toBe('examples/stores.csv');
  });

  it('a file given without a display name is named, not "the pipeline\'s own source"', async () => {
    expect(await recordedFile(`${h.prefix}-given`, { file: STORES })).toBe(STORES);
  });

  it('--file: read from the resolved path, shown as typed', async () => {
    expect(await sourceOf('examples/stores.csv')).toEqual({
      file: STORES,
      name: 'examples/stores.csv',
    });
  });
});

describe('the dead-letter search', () => {
  it('keeps a run filter when the form is sent again', () => {
    const body = deadLettersBody(
      { entries: [], total: 0 },
      { run: 'stores-abc' },
      { name: 'ops', role: 'viewer' },
      Date.now(),
    ).text;
    const form = body.slice(body.indexOf('<form'), body.indexOf('</form>'));
    expect(form).toMatch(/<input type="text" name="run" [^>]*value="stores-abc"/);
  });

  it("names a batch's keys and rows by their first five and how many more, all keys in the tooltip", () => {
    const keys = Array.from({ length: 56 }, (_, i) => String(10000 + i));
    const body = deadLettersBody(
      {
        entries: [
          {
            id: 'd3e5215ba37c61e8',
            at: new Date().toISOString(),
            runId: 'catalog-20261207T204418-0d83',
            pipeline: 'catalog',
            operationId: 'products.put',
            keys,
            source: keys.map((_, i) => `items.csv:${i + 2}`),
            errorCode: 'FERRY_NETWORK',
            message: 'connection failed',
            attempts: 3,
            failures: 1,
          },
        ],
        total: 1,
      },
      {},
      { name: 'ops', role: 'viewer' },
      Date.now(),
    ).text;
    expect(body).toContain(
      `title="${keys.join(', ')}">10000, 10001, 10002, 10003, 10004 and 51 more<`,
    );
    expect(body).toContain(
      'items.csv:2, items.csv:3, items.csv:4, items.csv:5, items.csv:6 and 51 more',
    );
    expect(body).not.toContain('items.csv:57');
  });
});
