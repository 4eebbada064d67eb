/**
 * `${NAME}` in a string value of a config or pipeline file: replaced by the environment variable
 * NAME, or by the contents of the file named by NAME_FILE (env-value.ts). A name neither gives is
 * an issue at the value's dotted path.
 */
import type { ConfigIssue } from '../errors/index.js';
import { envValue } from './env-value.js';

export function interpolate(
  value: unknown,
  env: NodeJS.ProcessEnv,
  path: string[],
  issues: ConfigIssue[],
): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Z0-9_]+)\}/g, (_m, name: string) => {
      const found = envValue(env, name);
      if (found.value === undefined) {
        const problem = 'problem' in found ? found.problem : undefined;
        issues.push({
          path: path.join('.'),
          message: problem ?? `environment variable ${name} (or ${name}_FILE) is not set`,
        });
        return '';
      }
      return found.value;
    });
  }
  if (Array.isArray(value))
    return value.map((v, i) => interpolate(v, env, [...path, String(i)], issues));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, interpolate(v, env, [...path, k], issues)]),
    );
  }
  return value;
}
