/**
 * Several platforms in the config (docs/PLATFORMS.md): `platforms.<name>` beside the top-level
 * interface (`default`), their environment overrides, and pipelines on them: the qualified names,
 * the overrides per platform, and the errors that name what to write instead.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { platformConfig, splitPipelineName } from '../../src/config/platforms.js';
import { issuesOf } from '../helpers/config-issues.js';
import { loadPipeline, pipelineTargets } from '../../src/pipeline/index.js';

const dir = mkdtempSync(join(tmpdir(), 'ferry-platforms-'));
const pipelines = join(dir, 'pipelines');
mkdirSync(pipelines);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PLATFORMS = [
  'platforms:',
  '  north:',
  '    baseUrl: http://127.0.0.1:4011',
  '    auth: { type: bearer, token: north-token }',
  '    delivery: { ratePerSecond: 5, concurrency: 2 }',
  '  south:',
  '    baseUrl: http://127.0.0.1:4012',
  '    auth: { type: bearer, token: south-token }',
  '    listing: B',
].join('\n');

function configFile(yaml: string): string {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, `pipelines: { dir: ${JSON.stringify(pipelines)} }\n${yaml}\n`);
  return file;
}

/** A pipeline file of one product entity, with `extra` lines at its top level. */
function pipelineFile(name: string, extra: string): void {
  writeFileSync(
    join(pipelines, `${name}.yaml`),
    [
      'source: { file: items.csv }',
      'mode: snapshot',
      'entities:',
      '  - name: product',
      '    operations: { upsert: products.put }',
      '    key: No.',
      '    fields:',
      '      name: Description',
      '      vendor: { value: ERP }',
      extra,
    ].join('\n'),
  );
}

describe('platforms in the config', () => {
  it('scopes a config to a platform: its address, credential, listing and rate; the rest shared', () => {
    const { config } = loadConfig({}, configFile(PLATFORMS));
    const north = platformConfig(config, 'north');
    expect(north.platform).toBe('north');
    expect(north.interface.baseUrl).toBe('http://127.0.0.1:4011');
    expect(north.interface.auth).toEqual({ type: 'bearer', token: 'north-token' });
    expect(north.delivery.ratePerSecond).toBe(5);
    expect(north.interface.timeouts).toEqual(config.interface.timeouts);
    expect(platformConfig(config, 'south').interface.listing).toBe('B');
    // The same object each time: what is cached per config stays cached.
    expect(platformConfig(config, 'north')).toBe(north);
    expect(platformConfig(config, 'default')).toBe(config);
  });

  it('takes FERRY_PLATFORM_<NAME>_BASE_URL and _TOKEN (or _TOKEN_FILE) per platform', () => {
    const secret = join(dir, 'south-token');
    writeFileSync(secret, 'from-a-file\n');
    const { config } = loadConfig(
      {
        FERRY_PLATFORM_NORTH_BASE_URL: 'http://127.0.0.1:5011',
        FERRY_PLATFORM_NORTH_TOKEN: 'rotated',
        FERRY_PLATFORM_SOUTH_TOKEN_FILE: secret,
        FERRY_PLATFORM_DEFAULT_BASE_URL: 'http://127.0.0.1:5010',
      },
      configFile(PLATFORMS),
    );
    expect(config.platforms.north?.baseUrl).toBe('http://127.0.0.1:5011');
    expect(config.platforms.north?.auth).toEqual({ type: 'bearer', token: 'rotated' });
    expect(config.platforms.south?.auth).toEqual({ type: 'bearer', token: 'from-a-file' });
    expect(config.interface.baseUrl).toBe('http://127.0.0.1:5010');
  });

  it('refuses a variable of an undeclared platform or setting, naming it and the platforms', () => {
    const issues = issuesOf(() =>
      loadConfig(
        { FERRY_PLATFORM_EAST_BASE_URL: 'http://x', FERRY_PLATFORM_NORTH_LISTING: 'B' },
        configFile(PLATFORMS),
      ),
    );
    expect(issues.map((i) => i.path).sort()).toEqual([
      'FERRY_PLATFORM_EAST_BASE_URL',
      'FERRY_PLATFORM_NORTH_LISTING',
    ]);
    expect(issues.find((i) => i.path.includes('EAST'))?.message).toContain(
      'platforms: default, north, south',
    );
  });

  it('names the key of a bad platform: `default` taken, a name not lowercase, a bad URL from the environment', () => {
    const issues = issuesOf(() =>
      loadConfig(
        { FERRY_PLATFORM_NORTH_BASE_URL: 'not a url' },
        configFile(
          [
            PLATFORMS,
            '  default: { baseUrl: http://a, auth: { type: none } }',
            '  North: { baseUrl: http://b, auth: { type: none } }',
          ].join('\n'),
        ),
      ),
    );
    const paths = issues.map((i) => i.path);
    expect(paths).toContain('platforms.default');
    expect(paths).toContain('platforms.North');
    expect(paths).toContain('platforms.north.baseUrl (from FERRY_PLATFORM_NORTH_BASE_URL)');
  });
});

describe('pipelines on platforms', () => {
  it('a fan-out runs under one name per platform, each compiled with its overrides', () => {
    pipelineFile(
      'shops',
      [
        'platforms: [north, south]',
        'overrides:',
        '  south:',
        '    fields:',
        '      product.vendor: { value: South AB }',
      ].join('\n'),
    );
    const { config } = loadConfig({}, configFile(PLATFORMS));
    expect(pipelineTargets('shops', config)).toEqual(['shops@north', 'shops@south']);
    expect(pipelineTargets('shops', config, 'south')).toEqual(['shops@south']);
    const south = loadPipeline('shops@south', config);
    expect(south).toMatchObject({ name: 'shops@south', platform: 'south' });
    expect(south.entities[0]?.spec.fields.vendor).toEqual({ value: 'South AB' });
    expect(loadPipeline('shops@north', config).entities[0]?.spec.fields.vendor).toEqual({
      value: 'ERP',
    });
    expect(splitPipelineName('shops@south')).toEqual({ pipeline: 'shops', platform: 'south' });
    // Without a platform, a fan-out cannot be one run: the message names the names to use.
    const issues = issuesOf(() => loadPipeline('shops', config));
    expect(issues[0]?.message).toContain('shops@north, shops@south');
  });

  it('a pipeline on one platform runs under its qualified name, `catalog` or not', () => {
    pipelineFile('northonly', 'platform: north');
    const { config } = loadConfig({}, configFile(PLATFORMS));
    expect(pipelineTargets('northonly', config)).toEqual(['northonly@north']);
    expect(loadPipeline('northonly', config).name).toBe('northonly@north');
    expect(issuesOf(() => loadPipeline('northonly@south', config))[0]?.message).toContain(
      'northonly does not deliver to south (it delivers to north)',
    );
  });

  it('names an undeclared platform, an override of no platform and a field no entity has', () => {
    pipelineFile('east', 'platform: east');
    const { config } = loadConfig({}, configFile(PLATFORMS));
    expect(issuesOf(() => pipelineTargets('east', config))[0]?.message).toContain(
      'no such platform; platforms: default, north, south',
    );
    pipelineFile(
      'badoverride',
      [
        'platforms: [north]',
        'overrides:',
        '  south: { fields: {} }',
        '  north:',
        '    fields:',
        '      product.vendr: { value: x }',
      ].join('\n'),
    );
    const schema = issuesOf(() => loadPipeline('badoverride@north', config));
    expect(schema.map((i) => i.path)).toContain('overrides.south');
    pipelineFile(
      'badfield',
      [
        'platforms: [north]',
        'overrides:',
        '  north:',
        '    fields:',
        '      product.vendr: x',
      ].join('\n'),
    );
    const field = issuesOf(() => loadPipeline('badfield@north', config));
    expect(field[0]?.path).toBe('overrides.north.fields.product.vendr');
    expect(field[0]?.message).toContain('Did you mean "vendor"?');
  });
});
