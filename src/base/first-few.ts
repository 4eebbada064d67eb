/**
 * "a, b, c, d, e and 51 more": a list for a line people read, its first few and how many more. A
 * batch's dead letter holds up to 100 keys; `ferry dlq show` and the JSON give them all.
 */
export function firstFew(values: readonly string[], shown = 5): string {
  const more = values.length - shown;
  return more > 0 ? `${values.slice(0, shown).join(', ')} and ${more} more` : values.join(', ');
}
