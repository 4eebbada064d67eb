/**
 * The environment's word on each platform (docs/CONFIGURATION.md, Environment):
 * `FERRY_PLATFORM_<NAME>_BASE_URL` and `FERRY_PLATFORM_<NAME>_TOKEN` (or `_TOKEN_FILE`, a mounted
 * secret) override `platforms.<name>.baseUrl` and its bearer token; `<NAME>` is the platform's name
 * in capitals, `DEFAULT` the top-level interface. A variable that names no declared platform, or
 * no setting Ferry reads, is an error at start: it would otherwise be silently ignored.
 */
import type { ConfigIssue } from '../errors/index.js';
import { envValue } from './env-value.js';

const VARIABLE = /^FERRY_PLATFORM_([A-Z0-9_]+?)_(BASE_URL|TOKEN)(_FILE)?$/;

/**
 * Writes the variables' values into `raw` (the config file's data); returns the variable each
 * written key path came from, for the messages of a value that does not validate.
 */
export function platformEnv(
  raw: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  issues: ConfigIssue[],
): Map<string, string> {
  const from = new Map<string, string>();
  const declared = raw.platforms && typeof raw.platforms === 'object' ? raw.platforms : {};
  const names = new Set(Object.keys(declared));
  for (const variable of Object.keys(env).filter((n) => n.startsWith('FERRY_PLATFORM_'))) {
    const match = VARIABLE.exec(variable);
    if (!match) {
      issues.push({
        path: variable,
        message:
          'not a variable Ferry reads: FERRY_PLATFORM_<NAME>_BASE_URL, _TOKEN or _TOKEN_FILE',
      });
      continue;
    }
    const [, upper = '', setting] = match;
    const name = upper.toLowerCase();
    if (name !== 'default' && !names.has(name)) {
      issues.push({
        path: variable,
        message: `names the platform ${name}, which the config does not declare (platforms: default${[...names].map((n) => `, ${n}`).join('')})`,
      });
      continue;
    }
    const base = `FERRY_PLATFORM_${upper}_${setting}`;
    // NAME and NAME_FILE are read once, through NAME.
    if (variable !== base && env[base] !== undefined) continue;
    const found = envValue(env, base);
    if ('problem' in found && found.problem) issues.push({ path: base, message: found.problem });
    if (found.value === undefined || found.value === '') continue;
    const target = platformTarget(raw, name);
    if (setting === 'BASE_URL') {
      target.baseUrl = found.value;
      from.set(`${name === 'default' ? 'interface' : `platforms.${name}`}.baseUrl`, base);
    } else {
      target.auth = { type: 'bearer', token: found.value };
      from.set(`${name === 'default' ? 'interface' : `platforms.${name}`}.auth.token`, base);
    }
  }
  return from;
}

function platformTarget(raw: Record<string, unknown>, name: string): Record<string, unknown> {
  if (name === 'default') return (raw.interface ??= {}) as Record<string, unknown>;
  const platforms = raw.platforms as Record<string, Record<string, unknown>>;
  return (platforms[name] ??= {});
}
