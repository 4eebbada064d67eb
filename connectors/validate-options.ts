/**
 * Checks a connector's options against its declaration: unknown names, types, allowed values,
 * bounds, required ones. Values may arrive typed (YAML) or as text (`--option k=v`); text is
 * converted. Returns the options with defaults applied, or throws a ConfigError naming each bad
 * option by its path and what was expected. Values of secret options never enter a message.
 */
import { ConfigError, type ConfigIssue } from '../src/errors/index.js';
import type { Connector, OptionDeclaration } from './types.js';

type Checked = { value: unknown } | { expected: string };

function show(value: unknown, declaration: OptionDeclaration): string {
  if (declaration.secret) return 'a secret value';
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function checkInteger(value: unknown, d: OptionDeclaration): Checked {
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  const bounds =
    d.min !== undefined && d.max !== undefined
      ? ` from ${d.min} to ${d.max}`
      : d.min !== undefined
        ? ` of at least ${d.min}`
        : d.max !== undefined
          ? ` of at most ${d.max}`
          : '';
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) return { expected: `an integer${bounds}` };
  if ((d.min !== undefined && n < d.min) || (d.max !== undefined && n > d.max))
    return { expected: `an integer${bounds}` };
  return { value: n };
}

function checkValue(value: unknown, d: OptionDeclaration): Checked {
  switch (d.type) {
    case 'string':
      return typeof value === 'string' && value !== ''
        ? { value }
        : typeof value === 'number'
          ? { value: String(value) }
          : { expected: 'a non-empty string' };
    case 'integer':
      return checkInteger(value, d);
    case 'boolean':
      if (typeof value === 'boolean') return { value };
      if (value === 'true' || value === 'false') return { value: value === 'true' };
      return { expected: 'true or false' };
    case 'enum':
      return typeof value === 'string' && d.values?.includes(value)
        ? { value }
        : { expected: `one of ${(d.values ?? []).map((v) => JSON.stringify(v)).join(', ')}` };
  }
}

/**
 * `path` prefixes each issue's path (`pipeline.source.options` -> `pipeline.source.options.delimiter`);
 * `source` says where the options came from (a file, the command line).
 */
export function validateConnectorOptions(
  connector: Connector,
  options: Record<string, unknown> | undefined,
  path: string,
  source = `the options of the ${connector.name} connector`,
): Record<string, unknown> {
  const issues: ConfigIssue[] = [];
  const at = (name: string): string => (path ? `${path}.${name}` : name);
  const result: Record<string, unknown> = {};
  const given = options ?? {};
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(connector.options, key)) {
      issues.push({
        path: at(key),
        message: `unknown option of the ${connector.name} connector; its options are: ${Object.keys(connector.options).join(', ')}`,
      });
    }
  }
  for (const [name, declaration] of Object.entries(connector.options)) {
    const value = given[name];
    if (value === undefined || value === null) {
      if (declaration.required) {
        issues.push({ path: at(name), message: `required: ${declaration.description}` });
      } else if (declaration.default !== undefined) result[name] = declaration.default;
      continue;
    }
    const checked = checkValue(value, declaration);
    if ('expected' in checked) {
      issues.push({
        path: at(name),
        message: `expected ${checked.expected}, got ${show(value, declaration)}`,
      });
    } else result[name] = checked.value;
  }
  if (issues.length > 0) throw new ConfigError(source, issues);
  return result;
}
