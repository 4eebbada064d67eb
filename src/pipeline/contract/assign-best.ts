/**
 * The assignment of rows to columns with the largest total score, each column to one row at most
 * and a row left out where it has no positive score (the Hungarian method, O(n² m)): what lets
 * `ferry pipeline new` give `Description` to name and `Description 2` to description rather
 * than the first name it meets to both, or the better name to one and nothing to the other.
 */

/** `scores[row][column]` (0: not a candidate) -> the column of each row, or undefined. */
export function assignBest(scores: readonly (readonly number[])[]): (number | undefined)[] {
  const n = scores.length;
  const m = scores[0]?.length ?? 0;
  // Minimise costs over m real columns and n "unassigned" ones (cost 0); a pair that is no
  // candidate costs more than leaving the row out.
  const width = m + n;
  const cost = (r: number, c: number): number => {
    if (c >= m) return 0;
    const s = scores[r]![c]!;
    return s > 0 ? -s : 1;
  };
  const INF = Number.POSITIVE_INFINITY;
  const u = new Array<number>(n + 1).fill(0);
  const v = new Array<number>(width + 1).fill(0);
  const p = new Array<number>(width + 1).fill(0); // p[column] = row (1-based), 0: free
  const way = new Array<number>(width + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Array<number>(width + 1).fill(INF);
    const used = new Array<boolean>(width + 1).fill(false);
    do {
      used[j0] = true;
      const i0 = p[j0]!;
      let delta = INF;
      let j1 = 0;
      for (let j = 1; j <= width; j++) {
        if (used[j]) continue;
        const cur = cost(i0 - 1, j - 1) - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= width; j++) {
        if (used[j]) {
          u[p[j]!] = u[p[j]!]! + delta;
          v[j] = v[j]! - delta;
        } else minv[j] = minv[j]! - delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const out = new Array<number | undefined>(n).fill(undefined);
  for (let j = 1; j <= m; j++) {
    const row = p[j]!;
    if (row > 0 && scores[row - 1]![j - 1]! > 0) out[row - 1] = j - 1;
  }
  return out;
}
