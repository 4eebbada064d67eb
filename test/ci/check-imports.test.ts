/**
 * .ci/check-imports.mjs (run by `npm run lint`) on small trees: what it lets through and what not,
 * checked in this process; one tree through the script itself, for its exit status and output.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkImports } from '../../.ci/check-imports.mjs';

const script = new URL('../../.ci/check-imports.mjs', import.meta.url).pathname;
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A tree of the given files (path -> text), with src/ and connectors/ always present. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'ferry-check-imports-'));
  roots.push(root);
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'connectors'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** Checks a tree of the given files in this process. */
function check(files: Record<string, string>): { status: number; output: string } {
  const { status, lines } = checkImports(tree(files));
  return { status, output: lines.map((line) => `${line}\n`).join('') };
}

/** Checks a tree of the given files as `npm run lint` does: the script in a process of its own. */
function checkByScript(files: Record<string, string>): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [script, tree(files)], { encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe('check-imports', () => {
  it('lets a folder import the layers below it through their front doors', () => {
    const { status, output } = check({
      'src/errors/index.ts': 'export const e = 1;\n',
      'src/pipeline/p.ts': "import { e } from '../errors/index.js';\nexport const p = e;\n",
      'src/pipeline/index.ts': "export { p } from './p.js';\n",
      'src/cli/c.ts': "import { p } from '../pipeline/index.js';\nexport const c = p;\n",
    });
    expect(output).toContain('no import cycles and no layer breaches among 4 modules');
    expect(status).toBe(0);
  });

  it('fails on a reach into another folder past its index.ts, but lets a lazy import() name one module', () => {
    const { status, output } = check({
      'src/runs/index.ts': "export { r } from './r.js';\n",
      'src/runs/r.ts': 'export const r = 1;\n',
      'src/queue/q.ts': "import type { r } from '../runs/r.js';\nexport type Q = typeof r;\n",
      'src/cli/c.ts': "export const load = () => import('../runs/r.js');\n",
    });
    expect(status).toBe(1);
    expect(output.trim().split('\n')).toEqual([
      "layer breach: src/queue/q.ts imports src/runs/r.ts: a module inside src/runs; import it from src/runs/index.ts, the folder's front door (docs/ARCHITECTURE.md, Layers)",
    ]);
  });

  it('names the file, the module and the rule of an import up, to a sibling or out of the layers', () => {
    const { status, output } = check({
      'src/base/b.ts': "import '../pipeline/p.js';\n// import '../cli/c.js';\n",
      'src/logging/l.ts': "import type { B } from '../base/b.js';\nexport type L = B;\n",
      'src/pipeline/p.ts': "export const p = import('../../test/helper.js');\n",
    });
    expect(status).toBe(1);
    const lines = output.trim().split('\n');
    expect(lines).toEqual([
      'layer breach: src/base/b.ts imports src/pipeline/p.ts: src/pipeline is in a higher layer (6 above 2); src/base may import only src/errors (docs/ARCHITECTURE.md, Layers)',
      'layer breach: src/logging/l.ts imports src/base/b.ts: src/base is in the same layer (2); src/logging may import only src/errors (docs/ARCHITECTURE.md, Layers)',
      'layer breach: src/pipeline/p.ts imports test/helper.ts: test is in no layer; src/pipeline may import only src/errors, src/base, src/logging, src/config, src/redis, src/interface, connectors, src/state (docs/ARCHITECTURE.md, Layers)',
    ]);
  });

  it('fails on a cycle and on a folder with no layer', () => {
    const { status, output } = checkByScript({
      'src/queue/a.ts': "import './b.js';\n",
      'src/queue/b.ts': "import './a.js';\n",
      'src/extra/x.ts': 'export {};\n',
    });
    expect(status).toBe(1);
    expect(output).toContain('import cycle: src/queue/a.ts -> src/queue/b.ts -> src/queue/a.ts');
    expect(output).toContain('layer breach: src/extra/x.ts: src/extra has no layer');
  });
});
