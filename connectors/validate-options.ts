/**
 * Checks options against a connector's option schema: unknown names, types, allowed values,
 * bounds, required ones. Values may arrive typed (YAML) or as text (`--option k=v`); text is
 * converted first. Returns the options with defaults applied, typed by the schema, or throws a
 * ConfigError naming each bad option by its path and what was expected. Values of secret options
 * never enter a message.
 */
import type { z } from 'zod';
import { ConfigError, type ConfigIssue } from '../src/errors/index.js';
import { optionFacts, type OptionFacts } from './option-facts.js';
import type { Connector } from './types.js';

function show(value: unknown, facts: OptionFacts): string {
  if (facts.secret) return 'a secret value';
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function expected(f: OptionFacts): string {
  switch (f.kind) {
    case 'string':
      return 'a non-empty string';
    case 'boolean':
      return 'true or false';
    case 'enum':
      return `one of ${(f.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'integer': {
      const { min, max } = f;
      if (min !== undefined && max !== undefined) return `an integer from ${min} to ${max}`;
      if (min !== undefined) return `an integer of at least ${min}`;
      if (max !== undefined) return `an integer of at most ${max}`;
      return 'an integer';
    }
  }
}

/** A value as the command line gives it (text) -> the type the option takes, where it reads as one. */
function fromText(value: unknown, f: OptionFacts): unknown {
  if (f.kind === 'integer' && typeof value === 'string' && /^-?\d+$/.test(value.trim()))
    return Number(value);
  if (f.kind === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  if (f.kind === 'string' && typeof value === 'number') return String(value);
  return value;
}

/**
 * `path` prefixes each issue's path (`pipeline.source.options` -> `pipeline.source.options.delimiter`);
 * `source` says where the options came from (a file, the command line).
 */
export function validateOptions<S extends z.ZodObject>(
  connectorName: string,
  schema: S,
  options: Record<string, unknown> | undefined,
  path: string,
  source = `the options of the ${connectorName} connector`,
): z.output<S> {
  const facts = optionFacts(schema);
  const at = (name: string): string => (path ? `${path}.${name}` : name);
  const given = options ?? {};
  const issues: ConfigIssue[] = [];
  const names = facts.map((f) => f.name);
  for (const key of Object.keys(given)) {
    if (!names.includes(key)) {
      issues.push({
        path: at(key),
        message: `unknown option of the ${connectorName} connector; its options are: ${names.join(', ')}`,
      });
    }
  }
  const input: Record<string, unknown> = {};
  for (const f of facts) {
    const value = given[f.name];
    // null (an empty YAML key) is the option left out.
    if (value !== undefined && value !== null) input[f.name] = fromText(value, f);
  }
  const parsed = schema.safeParse(input);
  const failed = new Set(parsed.success ? [] : parsed.error.issues.map((i) => String(i.path[0])));
  for (const f of facts) {
    if (!failed.has(f.name)) continue;
    issues.push({
      path: at(f.name),
      message:
        input[f.name] === undefined
          ? `required: ${f.description}`
          : `expected ${expected(f)}, got ${show(given[f.name], f)}`,
    });
  }
  if (issues.length > 0 || !parsed.success) throw new ConfigError(source, issues);
  return parsed.data;
}

/** The same for a registered connector, whose options are known only as some object schema. */
export function validateConnectorOptions(
  connector: Connector,
  options: Record<string, unknown> | undefined,
  path: string,
  source?: string,
): Record<string, unknown> {
  return validateOptions(connector.name, connector.options, options, path, source);
}
