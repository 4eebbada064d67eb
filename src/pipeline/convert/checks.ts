import { compareDecimals } from '../../base/index.js';

/** Per-field checks a pipeline may ask for (after conversion). */
export interface FieldChecks {
  email?: boolean;
  enum?: readonly (string | number | boolean)[];
  pattern?: string;
  min?: number | string;
  max?: number | string;
  minLength?: number;
  maxLength?: number;
}

export type Check = (value: unknown) => string | undefined;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function compare(value: unknown, limit: number | string): number | undefined {
  if (typeof value === 'number') return value - Number(limit);
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) {
    return compareDecimals(value, String(limit));
  }
  return undefined;
}

/** Compiles the checks into functions that return what was expected, or undefined when fine. */
export function compileChecks(checks: FieldChecks): Check[] {
  const list: Check[] = [];
  if (checks.email) {
    list.push((v) =>
      typeof v === 'string' && EMAIL.test(v)
        ? undefined
        : `expected an e-mail address, got "${String(v)}"`,
    );
  }
  if (checks.enum) {
    const allowed = new Set(checks.enum);
    const words = checks.enum.join(', ');
    list.push((v) =>
      allowed.has(v as string) ? undefined : `expected one of ${words}, got "${String(v)}"`,
    );
  }
  if (checks.pattern !== undefined) {
    const re = new RegExp(checks.pattern, 'u');
    list.push((v) =>
      re.test(String(v)) ? undefined : `expected to match ${checks.pattern}, got "${String(v)}"`,
    );
  }
  const { min, max } = checks;
  if (min !== undefined) {
    list.push((v) => {
      const c = compare(v, min);
      return c === undefined || c < 0 ? `expected at least ${min}, got "${String(v)}"` : undefined;
    });
  }
  if (max !== undefined) {
    list.push((v) => {
      const c = compare(v, max);
      return c === undefined || c > 0 ? `expected at most ${max}, got "${String(v)}"` : undefined;
    });
  }
  if (checks.minLength !== undefined) {
    const n = checks.minLength;
    list.push((v) =>
      String(v).length >= n ? undefined : `expected at least ${n} characters, got "${String(v)}"`,
    );
  }
  if (checks.maxLength !== undefined) {
    const n = checks.maxLength;
    list.push((v) =>
      String(v).length <= n ? undefined : `expected at most ${n} characters, got "${String(v)}"`,
    );
  }
  return list;
}
