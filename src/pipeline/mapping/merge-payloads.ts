import { canonicalJson } from '../../base/index.js';
import type { MappingPlan } from './compile-entity.js';

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

/**
 * Merges a later row of a group into the entity so far, field by field, per each field's `merge`:
 * first (keep the first value given), last, append (lists joined), unique (joined, repeats
 * dropped), or a registered merge function. The result keeps the payload's sorted key order.
 */
export function mergePayloads(
  plan: MappingPlan,
  current: Record<string, unknown>,
  next: Record<string, unknown>,
): Record<string, unknown> {
  const modes = new Map(plan.fields.map((f) => [f.name, f.merge]));
  const out: Record<string, unknown> = {};
  const names = [...new Set([...Object.keys(current), ...Object.keys(next)])].sort();
  for (const name of names) {
    const a = current[name];
    const b = next[name];
    const mode = modes.get(name) ?? 'first';
    let value: unknown;
    if (typeof mode === 'function') value = mode(a, b);
    else if (mode === 'first') value = a ?? b;
    else if (mode === 'last') value = b ?? a;
    else {
      const joined = [...asArray(a), ...asArray(b)];
      if (mode === 'append') value = joined;
      else {
        const seen = new Set<string>();
        value = joined.filter((v) => {
          const k = canonicalJson(v);
          return seen.has(k) ? false : (seen.add(k), true);
        });
      }
    }
    if (value !== undefined) out[name] = value;
  }
  return out;
}
