/**
 * The `ferry` binary compiled from the tree as it is now, for the tests that run it as a child
 * process (test/helpers/ferry-bin.ts). A child started through src/cli/ferry.js registers tsx and
 * compiles what it imports as it goes: about 1.1 s of CPU per start on a quiet 2-core machine,
 * against 0.6 s for compiled JavaScript, and tens of seconds at a load of 25.
 *
 * esbuild, the compiler tsx runs on, translates src/ and connectors/ file by file, as tsx does
 * (no type checking: `npm run typecheck` does that), in about a second. The output's folder is
 * named after a hash of every file it is made from, so a test never runs a build of other sources;
 * a run on an unchanged tree reuses the last one. It sits under the project (.cache/, ignored by
 * git), so that PROJECT_ROOT and node_modules resolve as they do from dist/.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build, version } from 'esbuild';

const SOURCES = ['src', 'connectors'];

function sourcesUnder(dir: string, files: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourcesUnder(path, files);
    else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) files.push(path);
  }
  return files;
}

/** Builds (or finds built) the sources under `root`; returns the path of the compiled bin.js. */
export async function buildFerry(root: string): Promise<string> {
  const files = SOURCES.flatMap((dir) => sourcesUnder(join(root, dir), [])).sort();
  const hash = createHash('sha256').update(`esbuild ${version}\n`);
  for (const file of [join(root, 'tsconfig.json'), ...files]) {
    hash.update(`${relative(root, file)}\n`).update(readFileSync(file));
  }
  const builds = join(root, '.cache', 'test-build');
  const out = join(builds, hash.digest('hex').slice(0, 16));
  const bin = join(out, 'src', 'cli', 'bin.js');
  if (existsSync(bin)) return bin;

  // Built beside its final place and renamed into it, so a half-written build is never used.
  mkdirSync(builds, { recursive: true });
  const partial = `${out}.${process.pid}.partial`;
  await build({
    entryPoints: files,
    outdir: partial,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'error',
  });
  try {
    renameSync(partial, out);
  } catch {
    // Another run built the same tree at the same time: its build is as good.
    rmSync(partial, { recursive: true, force: true });
  }
  // Builds of trees that no longer exist.
  for (const old of readdirSync(builds)) {
    if (join(builds, old) !== out && !old.endsWith('.partial')) {
      rmSync(join(builds, old), { recursive: true, force: true });
    }
  }
  return bin;
}
