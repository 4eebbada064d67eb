/**
 * What a run the guards stopped keeps of the input it read (docs/PIPELINES.md, Value guards): a
 * copy under `<delivery.reportsDir>/inputs/<runId>/`, kept undo.retentionDays, so that allowing
 * it (`ferry run P --allow-guard RUN` without --file, the console's Allow) plans exactly that
 * input again, whatever started it: a file, an upload, a picked-up file, a URL, SFTP, S3.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { copySource, type SourceSpec } from '../../connectors/index.js';
import { GuardAllowError } from './guards/guard-errors.js';
import type { RunRecord } from './run-record.js';

function inputsDir(reportsDir: string): string {
  return resolve(reportsDir, 'inputs');
}

/** Removes the kept inputs older than `days`. */
async function removeOldInputs(dir: string, days: number, now: number): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs > days * 86_400_000) {
      await rm(path, { recursive: true, force: true });
    }
  }
}

/**
 * Copies the run's input to its folder of kept inputs; the folder, or undefined for an input that
 * cannot be read twice (stdin) or could not be copied (the stop stands; allowing it then needs
 * the file again).
 */
export async function keepInput(
  spec: SourceSpec,
  reportsDir: string,
  runId: string,
  retentionDays: number,
): Promise<string | undefined> {
  if ('stdin' in spec) return undefined;
  const all = inputsDir(reportsDir);
  await removeOldInputs(all, retentionDays, Date.now());
  const dir = join(all, runId);
  try {
    await copySource(spec, dir);
    return dir;
  } catch {
    await rm(dir, { recursive: true, force: true });
    return undefined;
  }
}

/**
 * The source that reads a stopped run's kept input again, named as the run named its file;
 * refused (FERRY_GUARD_ALLOW) when it kept none or it expired.
 */
export async function keptInputSource(run: RunRecord): Promise<SourceSpec> {
  const gone = (why: string) =>
    new GuardAllowError(
      `Run ${run.id}'s input ${why}: give the same input again with --file to allow it.`,
      { runId: run.id },
    );
  // Stopped before inputs were kept: the file it read, where it still is.
  if (!run.keptInput && run.sourcePath)
    return { file: run.sourcePath, name: run.file ?? run.sourcePath };
  if (!run.keptInput) throw gone('was not kept (it was read from stdin, or could not be copied)');
  const files = (await readdir(run.keptInput).catch(() => [] as string[])).sort();
  if (files.length === 0) throw gone('is no longer kept (undo.retentionDays)');
  const name = run.file ?? files[0]!;
  return files.length === 1
    ? { file: join(run.keptInput, files[0]!), name }
    : { folder: run.keptInput, name };
}
