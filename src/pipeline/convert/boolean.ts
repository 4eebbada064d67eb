/** Words read as true and false by default (compared without regard to case). */
export const DEFAULT_TRUE = ['yes', 'ja', 'true', '1'] as const;
export const DEFAULT_FALSE = ['no', 'nei', 'false', '0'] as const;

export type BooleanResult = { value: boolean } | { error: string };

export interface BooleanWords {
  truthy: ReadonlySet<string>;
  falsy: ReadonlySet<string>;
}

export function booleanWords(
  trueValues: readonly string[] = DEFAULT_TRUE,
  falseValues: readonly string[] = DEFAULT_FALSE,
): BooleanWords {
  return {
    truthy: new Set(trueValues.map((v) => v.toLowerCase())),
    falsy: new Set(falseValues.map((v) => v.toLowerCase())),
  };
}

export function parseBoolean(raw: string, words: BooleanWords): BooleanResult {
  const v = raw.toLowerCase();
  if (words.truthy.has(v)) return { value: true };
  if (words.falsy.has(v)) return { value: false };
  return {
    error: `expected one of ${[...words.truthy, ...words.falsy].join(', ')}, got "${raw}"`,
  };
}
