/** A small seeded PRNG (mulberry32): the same seed gives the same sequence on every machine. */
export type Random = () => number;

export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed derived from a base seed and labels (FNV-1a), for independent streams. */
export function deriveSeed(seed: number, ...labels: (string | number)[]): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (const ch of labels.join('\u0000')) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** An integer in [min, max]. */
export function intBetween(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
