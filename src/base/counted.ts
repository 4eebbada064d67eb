/** "1 request", "56 requests": a count and its word, plural with an s. */
export function counted(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
