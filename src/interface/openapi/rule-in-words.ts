/** An ajv error as what a person reads: the JSON pointer it concerns and the rule in words. */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { escapeToken } from './json-pointer.js';

/** A rule of the schema a payload breaks: where in the payload, and the rule in words. */
export interface Violation {
  pointer: string;
  message: string;
}

const MAX_SHOWN = 60;

function shown(data: unknown): string {
  const text = data === undefined ? 'nothing' : (JSON.stringify(data) ?? String(data));
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}

const listed = (values: unknown): string =>
  Array.isArray(values)
    ? values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')
    : String(values);

/**
 * An ajv error as the pointer it concerns and the rule in words; `received`: the payload is a
 * request someone sent (the simulator's check), not one Ferry's mapping made.
 */
export function inWords(e: ErrorObject, received = false): Violation {
  const p = e.params as Record<string, unknown>;
  const got = `got ${shown(e.data)}`;
  const at = (name: unknown) => `${e.instancePath}/${escapeToken(String(name))}`;
  switch (e.keyword) {
    case 'required':
      return {
        pointer: at(p.missingProperty),
        message: received ? 'required, but missing' : 'required, but the mapping gave no value',
      };
    case 'additionalProperties':
      return { pointer: at(p.additionalProperty), message: 'is not a property the schema allows' };
    case 'unevaluatedProperties':
      return { pointer: at(p.unevaluatedProperty), message: 'is not a property the schema allows' };
    case 'pattern':
      return { pointer: e.instancePath, message: `must match ${String(p.pattern)}, ${got}` };
    case 'maxLength':
    case 'minLength': {
      const most = e.keyword === 'maxLength' ? 'at most' : 'at least';
      const length = typeof e.data === 'string' ? ` (${[...e.data].length})` : '';
      const message = `must be ${most} ${String(p.limit)} characters, ${got}${length}`;
      return { pointer: e.instancePath, message };
    }
    case 'enum':
      return {
        pointer: e.instancePath,
        message: `must be one of ${listed(p.allowedValues)}, ${got}`,
      };
    case 'type':
      return { pointer: e.instancePath, message: `must be ${listed(p.type)}, ${got}` };
    case 'format':
      return { pointer: e.instancePath, message: `must be a valid ${String(p.format)}, ${got}` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return {
        pointer: e.instancePath,
        message: `must be ${String(p.comparison)} ${String(p.limit)}, ${got}`,
      };
    case 'minItems':
    case 'maxItems': {
      const most = e.keyword === 'maxItems' ? 'at most' : 'at least';
      const count = Array.isArray(e.data) ? e.data.length : 0;
      return {
        pointer: e.instancePath,
        message: `must have ${most} ${String(p.limit)} items, got ${count}`,
      };
    }
    default:
      return { pointer: e.instancePath, message: `${e.message ?? e.keyword}, ${got}` };
  }
}
