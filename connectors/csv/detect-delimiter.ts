/** The field separator of a CSV file, judged from its header line. */

/** Candidates in order of preference when they are found equally often. */
export const DELIMITER_CANDIDATES = [',', ';', '\t', '|'] as const;

/**
 * Index of the line break (LF, CR or CRLF) that ends the first line (outside quotes), or -1 when
 * there is none yet.
 */
export function firstLineEnd(text: string, quote: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === quote) quoted = !quoted;
    else if ((c === '\n' || c === '\r') && !quoted) return i;
  }
  return -1;
}

/** How often each candidate occurs outside quotes in `line`. */
export function countDelimiters(line: string, quote: string): Map<string, number> {
  const counts = new Map<string, number>(DELIMITER_CANDIDATES.map((d) => [d, 0]));
  let quoted = false;
  for (const c of line) {
    if (c === quote) quoted = !quoted;
    else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  return counts;
}

/** The candidate found most often on the header line; `,` when none is (a one-column file). */
export function detectDelimiter(headerLine: string, quote: string): string {
  let best: string = ',';
  let bestCount = 0;
  for (const [d, n] of countDelimiters(headerLine, quote)) {
    if (n > bestCount) [best, bestCount] = [d, n];
  }
  return best;
}
