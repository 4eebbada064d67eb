/** Replaces every occurrence of a secret in text that is about to reach an error or a report. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // Very short values would blank out ordinary words; real credentials are longer.
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out;
}
