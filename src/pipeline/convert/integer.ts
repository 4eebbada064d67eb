export type IntegerResult = { value: number } | { error: string };

/** Digits with an optional sign; thousands may be grouped by space or no-break space. */
const INTEGER = /^[-+\u2212]?\d{1,3}([ \u00a0\u202f]\d{3})*$|^[-+\u2212]?\d+$/;

/** Parses a whole number that fits a JavaScript number exactly. */
export function parseInteger(raw: string): IntegerResult {
  if (!INTEGER.test(raw)) return { error: `expected a whole number, got "${raw}"` };
  const value = Number(raw.replace(/[ \u00a0\u202f+]/g, '').replace('\u2212', '-'));
  if (!Number.isSafeInteger(value)) return { error: `"${raw}" is too large for a whole number` };
  return { value: Object.is(value, -0) ? 0 : value };
}
