import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder in the OS temp dir, and a function that removes it. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ferry-connectors-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
