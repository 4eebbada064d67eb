import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { ConfigError, type ConfigIssue } from '../errors/index.js';
import { envValue } from './env-value.js';
import { formatIssues } from './format-issues.js';
import { interpolate } from './interpolate.js';
import { platformEnv } from './platform-env.js';
import { configSchema, type FerryConfig } from './schema.js';

/**
 * The project's root (where package.json is), for defaults that must work from any cwd: found by
 * walking up, so that it is the same from src/ (tsx) and from the compiled dist/src/.
 */
export const PROJECT_ROOT = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();

/**
 * Environment variables that override the file (docs/CONFIGURATION.md, Environment), with the key
 * each sets.
 */
export const ENV_OVERRIDES = {
  REDIS_URL: 'redis.url',
  FERRY_PREFIX: 'redis.prefix',
  FERRY_BASE_URL: 'interface.baseUrl',
  FERRY_TOKEN: 'interface.auth.token',
  FERRY_LISTING: 'interface.listing',
  FERRY_OPENAPI: 'interface.openapi',
  FERRY_LOG_LEVEL: 'log.level',
  FERRY_UPLOAD_MAX_BYTES: 'serve.uploadMaxBytes',
  FERRY_WEBHOOK_SECRET: 'notifications.secret',
} as const;

export interface LoadedConfig {
  config: FerryConfig;
  /** The file it was read from. */
  source: string;
}

/** Where the config file is: FERRY_CONFIG, else ./config/default.yaml, else the project's own. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.FERRY_CONFIG) return resolve(env.FERRY_CONFIG);
  const local = resolve('config/default.yaml');
  return existsSync(local) ? local : resolve(PROJECT_ROOT, 'config/default.yaml');
}

/** An overriding variable, or the file its NAME_FILE names (a docker or Kubernetes secret). */
function envOverride(
  env: NodeJS.ProcessEnv,
  name: string,
  issues: ConfigIssue[],
): string | undefined {
  const found = envValue(env, name);
  if ('problem' in found && found.problem) issues.push({ path: name, message: found.problem });
  return found.value;
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (!next || typeof next !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1] as string] = value;
}

/** Reads a YAML file into plain data; a syntax error names the file, line and column. */
export function readYamlFile(file: string): unknown {
  if (!existsSync(file)) throw new ConfigError(file, [{ path: '', message: 'file not found' }]);
  const doc = parseDocument(readFileSync(file, 'utf8'), { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      file,
      doc.errors.map((e) => ({
        path: e.linePos ? `line ${e.linePos[0].line}, column ${e.linePos[0].col}` : '',
        message: e.message.split('\n')[0] ?? 'YAML syntax error',
      })),
    );
  }
  return doc.toJS() ?? {};
}

/**
 * REDIS_CLUSTER (docs/CONFIGURATION.md, Environment): comma-separated `host:port` seeds of a Redis
 * Cluster, used instead of REDIS_URL; credentials and TLS still come from the URL (REDIS_URL or the
 * file).
 */
function useClusterSeeds(raw: Record<string, unknown>, value: string, file: string): void {
  const seeds = value.split(',').map((s) => s.trim());
  const bad = seeds.find((s) => !/^[^\s:/@]+:\d+$/.test(s));
  if (bad !== undefined) {
    throw new ConfigError(file, [
      {
        path: 'REDIS_CLUSTER',
        message: `expected host:port seeds separated by commas, got "${bad}"`,
      },
    ]);
  }
  const redis = (raw.redis ?? {}) as Record<string, unknown>;
  const given = typeof redis.url === 'string' ? redis.url : 'redis://127.0.0.1:6379';
  const [, scheme = 'redis://', auth = ''] = /^(rediss?:\/\/)([^@/]*@)?/.exec(given) ?? [];
  const urls = seeds.map((seed) => `${scheme}${auth}${seed}`);
  raw.redis = { ...redis, mode: 'cluster', url: urls[0], nodes: urls.slice(1) };
}

/**
 * FERRY_VIEWER_TOKEN and FERRY_OPERATOR_TOKEN: one console token each (docs/CONSOLE.md, Roles).
 * Returns the variable each added entry of serve.tokens came from, by the entry's key path.
 */
function addRoleTokens(
  raw: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  issues: ConfigIssue[],
): Map<string, string> {
  const added = new Map<string, string>();
  const roles = [
    ['FERRY_VIEWER_TOKEN', 'viewer'],
    ['FERRY_OPERATOR_TOKEN', 'operator'],
  ] as const;
  for (const [name, role] of roles) {
    const token = envOverride(env, name, issues);
    if (!token) continue;
    const serve = (raw.serve ??= {}) as Record<string, unknown>;
    const tokens = Array.isArray(serve.tokens) ? serve.tokens : [];
    serve.tokens = [...tokens, { name, role, token }];
    added.set(`serve.tokens.${tokens.length}`, name);
  }
  return added;
}

/** Loads and validates the configuration; throws ConfigError naming every offending key. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  file = configPath(env),
): LoadedConfig {
  const issues: ConfigIssue[] = [];
  const raw = interpolate(readYamlFile(file), env, [], issues) as Record<string, unknown>;
  if (issues.length > 0) throw new ConfigError(file, issues);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(file, [
      { path: '', message: 'expected a mapping of keys at the top level' },
    ]);
  }
  for (const [name, key] of Object.entries(ENV_OVERRIDES)) {
    const value = envOverride(env, name, issues);
    if (value === undefined || value === '') continue;
    if (name === 'FERRY_TOKEN') {
      setPath(raw, 'interface.auth', { type: 'bearer', token: value });
    } else {
      setPath(raw, key, value);
    }
  }
  if (env.REDIS_CLUSTER) useClusterSeeds(raw, env.REDIS_CLUSTER, file);
  const fromPlatformEnv = platformEnv(raw, env, issues);
  const roleTokens = addRoleTokens(raw, env, issues);
  if (issues.length > 0) throw new ConfigError(file, issues);
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const envByKey = new Map<string, string>(Object.entries(ENV_OVERRIDES).map(([n, k]) => [k, n]));
    const named = formatIssues(parsed.error).map((i) => {
      // A console token from the environment is an entry of serve.tokens the file does not have.
      const tokenEntry = /^serve\.tokens\.\d+/.exec(i.path)?.[0];
      const fromRole = tokenEntry === undefined ? undefined : roleTokens.get(tokenEntry);
      if (fromRole) return { ...i, path: `${i.path} (from ${fromRole})` };
      const envName = envByKey.get(i.path) ?? fromPlatformEnv.get(i.path);
      const given = envName && envValue(env, envName).value;
      return given ? { ...i, path: `${i.path} (from ${envName})` } : i;
    });
    throw new ConfigError(file, named);
  }
  return { config: parsed.data, source: file };
}
