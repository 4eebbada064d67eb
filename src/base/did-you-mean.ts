/**
 * "Did you mean …?" for a mistyped name (a command, an option, a pipeline): the closest of the
 * known names by edit distance, when it is close enough to be the one meant.
 */

/** Levenshtein distance (insert, delete, substitute: 1 each). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The known name closest to `given` (at most a third of its length away, at least 2), if any. */
export function closestName(given: string, known: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(given.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = distance(given.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= limit && bestDistance > 0 ? best : undefined;
}

/** ` Did you mean "x"?` or '' (to append to a message). */
export function didYouMean(given: string, known: readonly string[]): string {
  const name = closestName(given, known);
  return name === undefined ? '' : ` Did you mean "${name}"?`;
}
