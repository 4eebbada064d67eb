import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { issuesOf } from '../helpers/config-issues.js';

// One folder for the whole file's configs, removed at the end.
const dir = mkdtempSync(join(tmpdir(), 'ferry-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

function configFile(yaml: string): string {
  const file = join(dir, `config-${++files}.yaml`);
  writeFileSync(file, yaml);
  return file;
}

describe('loadConfig', () => {
  it('fills defaults for an empty file', () => {
    const { config } = loadConfig({}, configFile('{}\n'));
    expect(config.redis.prefix).toBe('ferry');
    expect(config.interface.listing).toBe('A');
    expect(config.interface.idempotencyHeader).toBe('Idempotency-Key');
  });

  it('names the path of an unknown key', () => {
    const issues = issuesOf(() =>
      loadConfig({}, configFile('interface:\n  timeouts:\n    conectMs: 10\n')),
    );
    expect(issues).toEqual([expect.objectContaining({ path: 'interface.timeouts.conectMs' })]);
  });

  it('names the path of a mistyped key and what was expected', () => {
    const issues = issuesOf(() => loadConfig({}, configFile('delivery:\n  concurrency: "many"\n')));
    expect(issues[0]?.path).toBe('delivery.concurrency');
    expect(issues[0]?.message).toMatch(/number/);
  });

  it('reads a cluster or a sentinel target, and names what a mode lacks or does not use', () => {
    const cluster = loadConfig(
      {},
      configFile('redis:\n  mode: cluster\n  url: redis://a:7000\n  nodes: [redis://b:7000]\n'),
    ).config.redis;
    expect(cluster).toMatchObject({ mode: 'cluster', nodes: ['redis://b:7000'] });
    const sentinel = loadConfig(
      {},
      configFile('redis:\n  mode: sentinel\n  sentinels: [s1:26379, s2:26379]\n  name: main\n'),
    ).config.redis;
    expect(sentinel).toMatchObject({ mode: 'sentinel', name: 'main' });

    expect(issuesOf(() => loadConfig({}, configFile('redis:\n  mode: sentinel\n')))).toEqual([
      expect.objectContaining({ path: 'redis.sentinels', message: 'required by mode sentinel' }),
      expect.objectContaining({ path: 'redis.name', message: 'required by mode sentinel' }),
    ]);
    expect(
      issuesOf(() => loadConfig({}, configFile('redis:\n  nodes: [redis://b:7000]\n'))),
    ).toEqual([
      expect.objectContaining({ path: 'redis.nodes', message: 'only used with mode cluster' }),
    ]);
    expect(
      issuesOf(() =>
        loadConfig({}, configFile('redis:\n  mode: cluster\n  url: redis://a:7000/3\n')),
      ),
    ).toEqual([
      expect.objectContaining({ path: 'redis.url', message: 'a cluster has database 0 only' }),
    ]);
    const badSentinel = 'redis:\n  mode: sentinel\n  sentinels: [s1]\n  name: main\n';
    expect(issuesOf(() => loadConfig({}, configFile(badSentinel)))[0]?.path).toBe(
      'redis.sentinels.0',
    );
  });

  it('names the environment variable behind a bad override', () => {
    const issues = issuesOf(() => loadConfig({ FERRY_LISTING: 'C' }, configFile('{}\n')));
    expect(issues[0]?.path).toBe('interface.listing (from FERRY_LISTING)');
  });

  it('names the variable behind a bad console token, not an entry the file does not have', () => {
    const file = configFile(
      'serve:\n  tokens:\n    - { name: ci, role: viewer, token: a-long-enough-token-1 }\n',
    );
    const issues = issuesOf(() => loadConfig({ FERRY_OPERATOR_TOKEN: 'short' }, file));
    expect(issues).toEqual([
      expect.objectContaining({ path: 'serve.tokens.1.token (from FERRY_OPERATOR_TOKEN)' }),
    ]);
    // The token itself is a secret: not echoed.
    expect(JSON.stringify(issues)).not.toContain('short');
  });

  it('lets the environment override the file', () => {
    const { config } = loadConfig(
      {
        REDIS_URL: 'redis://example:6380',
        FERRY_PREFIX: 'p1',
        FERRY_TOKEN: 's3cret',
        FERRY_LISTING: 'B',
      },
      configFile('interface:\n  auth: { type: basic, username: u, password: p }\n'),
    );
    expect(config.redis.url).toBe('redis://example:6380');
    expect(config.redis.prefix).toBe('p1');
    expect(config.interface.listing).toBe('B');
    expect(config.interface.auth).toEqual({ type: 'bearer', token: 's3cret' });
  });

  it('takes a Redis Cluster from REDIS_CLUSTER, keeping the credentials of the URL', () => {
    const { config } = loadConfig(
      { REDIS_CLUSTER: 'r1:7000, r2:7001,r3:7002', REDIS_URL: 'rediss://:pw@ignored:6379' },
      configFile('{}\n'),
    );
    expect(config.redis).toMatchObject({
      mode: 'cluster',
      url: 'rediss://:pw@r1:7000',
      nodes: ['rediss://:pw@r2:7001', 'rediss://:pw@r3:7002'],
    });
    expect(
      issuesOf(() => loadConfig({ REDIS_CLUSTER: 'r1:7000,redis://r2' }, configFile('{}\n'))),
    ).toEqual([
      {
        path: 'REDIS_CLUSTER',
        message: 'expected host:port seeds separated by commas, got "redis://r2"',
      },
    ]);
  });

  it('reports an unset ${VAR} by the key that uses it, without the secret', () => {
    const issues = issuesOf(() =>
      loadConfig(
        {},
        configFile('interface:\n  auth: { type: bearer, token: "${PLATFORM_TOKEN}" }\n'),
      ),
    );
    expect(issues[0]).toEqual({
      path: 'interface.auth.token',
      message: 'environment variable PLATFORM_TOKEN (or PLATFORM_TOKEN_FILE) is not set',
    });
  });

  it('reports a YAML syntax error with its line', () => {
    const issues = issuesOf(() => loadConfig({}, configFile('redis:\n  url: [unclosed\n')));
    expect(issues[0]?.path).toMatch(/^line \d+/);
  });
});
