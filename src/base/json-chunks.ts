/**
 * One JSON document as a sequence of pieces, for a writer that must never hold it as one string:
 * `ferry plan --json --show-items` of a million rows is more than V8's longest string
 * (RangeError: Invalid string length). Joined, the pieces are exactly stringifyExact(value, indent).
 * A container small enough (at most `small` values inside it) is one piece; a bigger one is opened,
 * and each of its values is a piece or opened in turn.
 */
import { ExactNumber, stringifyExact } from './exact-json.js';

/** Values inside a container that is written as one piece. */
const SMALL = 2_000;

/** What JSON.stringify writes for `value` as a property of `key`: after toJSON (a Date's). */
function jsonValue(value: unknown, key: string): unknown {
  if (value instanceof ExactNumber) return value;
  const toJSON = (value as { toJSON?: unknown } | null)?.toJSON;
  return typeof toJSON === 'function' ? (toJSON as (k: string) => unknown).call(value, key) : value;
}

/** Whether JSON.stringify leaves an object's property out (null in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** Whether `value` holds at most `budget` values, counted down to its leaves. */
function smallEnough(value: unknown, budget: number): boolean {
  let left = budget;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (!v || typeof v !== 'object' || v instanceof ExactNumber) continue;
    const values = Array.isArray(v) ? v : Object.values(v);
    left -= values.length;
    if (left < 0) return false;
    stack.push(...values);
  }
  return true;
}

function* pieces(
  value: unknown,
  indent: string,
  depth: string,
  small: number,
): Generator<string, void, undefined> {
  if (
    !value ||
    typeof value !== 'object' ||
    value instanceof ExactNumber ||
    smallEnough(value, small)
  ) {
    const text = stringifyExact(value, indent.length) ?? 'null';
    // A JSON text has no raw line break but between its values: indented to where it stands.
    yield depth && indent ? text.replace(/\n/g, `\n${depth}`) : text;
    return;
  }
  const inner = depth + indent;
  const nl = indent ? '\n' : '';
  if (Array.isArray(value)) {
    if (value.length === 0) return yield '[]';
    for (let i = 0; i < value.length; i++) {
      yield `${i === 0 ? '[' : ','}${nl}${inner}`;
      const v = jsonValue(value[i], String(i));
      yield* omitted(v) ? ['null'] : pieces(v, indent, inner, small);
    }
    return yield `${nl}${depth}]`;
  }
  let first = true;
  for (const [key, raw] of Object.entries(value)) {
    const v = jsonValue(raw, key);
    if (omitted(v)) continue;
    yield `${first ? '{' : ','}${nl}${inner}${JSON.stringify(key)}:${indent ? ' ' : ''}`;
    first = false;
    yield* pieces(v, indent, inner, small);
  }
  yield first ? '{}' : `${nl}${depth}}`;
}

/**
 * The pieces of `value`'s JSON text, indented by `indent` spaces (0: none). `small` is for tests:
 * the most values a container written as one piece holds.
 */
export function jsonChunks(value: unknown, indent = 0, small = SMALL): Iterable<string> {
  return pieces(jsonValue(value, ''), ' '.repeat(indent), '', small);
}
