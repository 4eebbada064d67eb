/**
 * NAME_FILE secrets (docker and Kubernetes secrets): `${NAME}` in the config file and in a
 * pipeline's source, and the secret environment overrides, read from the file NAME_FILE names;
 * a missing one is refused at start with the key's path and never echoes a value.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadConfig, PROJECT_ROOT } from '../../src/config/load-config.js';
import { ConfigError } from '../../src/errors/index.js';
import { loadPipeline } from '../../src/pipeline/definition/load-pipeline.js';

const catalog = parse(
  readFileSync(join(PROJECT_ROOT, 'config/pipelines/catalog.yaml'), 'utf8'),
) as Record<string, unknown>;
const dir = mkdtempSync(join(tmpdir(), 'ferry-name-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function secretFile(name: string, value: string): string {
  const file = join(dir, name);
  writeFileSync(file, value);
  return file;
}

function configFile(yaml: string): string {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, yaml);
  return file;
}

describe('NAME_FILE', () => {
  it('gives a ${NAME} of the config file its value from the file (one trailing newline dropped)', () => {
    const file = configFile('interface:\n  auth: { type: bearer, token: "${SHOP_TOKEN}" }\n');
    const env = { SHOP_TOKEN_FILE: secretFile('shop-token', 'token-from-a-secret-file\n') };
    const { config } = loadConfig(env, file);
    expect(config.interface.auth).toEqual({ type: 'bearer', token: 'token-from-a-secret-file' });
  });

  it('gives the secret overrides (FERRY_TOKEN, FERRY_OPERATOR_TOKEN) their values too', () => {
    const env = {
      FERRY_TOKEN_FILE: secretFile('ferry-token', 'platform-token-123\n'),
      FERRY_OPERATOR_TOKEN_FILE: secretFile('operator', 'operator-token-0123456789'),
    };
    const { config } = loadConfig(env, configFile('{}\n'));
    expect(config.interface.auth).toEqual({ type: 'bearer', token: 'platform-token-123' });
    expect(config.serve.tokens).toContainEqual({
      name: 'FERRY_OPERATOR_TOKEN',
      role: 'operator',
      token: 'operator-token-0123456789',
    });
  });

  it('prefers NAME itself; a NAME_FILE that cannot be read stops loading, naming the key', () => {
    const file = configFile('notifications:\n  secret: "${HOOK_SECRET}"\n');
    const both = {
      HOOK_SECRET: 'from-the-environment-1234',
      HOOK_SECRET_FILE: secretFile('hook', 'from-the-file-123456789'),
    };
    expect(loadConfig(both, file).config.notifications.secret).toBe('from-the-environment-1234');
    const missing = { HOOK_SECRET_FILE: join(dir, 'nope') };
    const error = (() => {
      try {
        loadConfig(missing, file);
      } catch (e) {
        return e as ConfigError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.issues).toEqual([
      {
        path: 'notifications.secret',
        message: `HOOK_SECRET_FILE names ${join(dir, 'nope')}, which cannot be read (ENOENT)`,
      },
    ]);
    expect(() => loadConfig({}, file)).toThrow(/HOOK_SECRET \(or HOOK_SECRET_FILE\) is not set/);
  });

  it("fills a pipeline source's ${NAME} (an SFTP key) and checks its host key at load", () => {
    const pipelines = join(dir, 'pipelines');
    const { config } = loadConfig({}, configFile(`pipelines: { dir: ${pipelines} }\n`));
    const key =
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----\n';
    process.env.NAME_FILE_TEST_KEY_FILE = secretFile('sftp-key', key);
    const write = (name: string, hostKey: string): void => {
      mkdirSync(pipelines, { recursive: true });
      writeFileSync(
        join(pipelines, `${name}.yaml`),
        stringify({
          source: {
            sftp: {
              host: 'sftp.example.com',
              username: 'erp',
              privateKey: '${NAME_FILE_TEST_KEY}',
              hostKey,
              path: '/exports',
              pattern: 'items-*.csv',
            },
          },
          mode: catalog.mode,
          entities: catalog.entities,
          schedule: { cron: '0 2 * * *', pickup: {} },
        }),
      );
    };
    try {
      write('good', `SHA256:${'a'.repeat(43)}`);
      const definition = loadPipeline('good', config);
      expect(definition.source.sftp).toMatchObject({ privateKey: key.trimEnd(), port: 22 });
      write('bad', 'not a key');
      expect(() => loadPipeline('bad', config)).toThrow(/source\.sftp\.hostKey: .*SHA256/);
    } finally {
      delete process.env.NAME_FILE_TEST_KEY_FILE;
    }
  });
});
