// Fails when the project's own modules import each other in a cycle, when a folder imports one
// of a layer above its own (or a sibling of its layer): the layers of docs/ARCHITECTURE.md, or
// when it reaches into another folder's modules instead of entering by its front door, the
// folder's index.ts (an `import()` that loads one module lazily may name it). Reads the relative
// imports of every .ts file under src/ and connectors/ with TypeScript's own parser, so side-effect
// imports (`import './x.js'`), `export ... from`, `import()` and import types count, and imports
// inside comments or strings do not. `node .ci/check-imports.mjs [ROOT]` checks another tree laid
// out the same way; its test calls checkImports(root) in its own process.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

function walk(dir, files) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, files);
    else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) files.push(path);
  }
  return files;
}

// Lowest first. A folder may import its own modules and those of the layers below; folders of
// the same layer are independent of each other.
const LAYERS = [
  ['src/errors'],
  ['src/base', 'src/logging'],
  ['src/config'],
  ['src/redis', 'src/interface', 'connectors'],
  ['src/state'],
  ['src/pipeline', 'src/simulator'],
  ['src/runs'],
  ['src/queue'],
  ['src/orchestrate'],
  ['src/export', 'src/reconcile'],
  ['src/schedules'],
  ['src/serve'],
  ['src/demo'],
  ['src/cli'],
];
const layerOf = new Map(LAYERS.flatMap((folders, i) => folders.map((f) => [f, i])));

/** The relative module specifiers of a file, each with whether it is a lazy `import()`. */
function importsOf(file) {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out = [];
  const add = (literal, lazy) => {
    if (literal && ts.isStringLiteralLike(literal) && literal.text.startsWith('.'))
      out.push({ spec: literal.text, lazy });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node))
      add(node.moduleSpecifier, false);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      add(node.argument.literal, false);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(node.arguments[0], true);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/**
 * Checks the tree at `root`: exit status 0 with one line saying so, or 1 with a line for each
 * cycle and breach.
 */
export function checkImports(root) {
  const files = walk(join(root, 'connectors'), walk(join(root, 'src'), []));
  /** The folder a file belongs to: `src/<folder>`, else its top folder (`connectors`, `test`). */
  const folderOf = (file) => {
    const parts = relative(root, file).split('/');
    return parts[0] === 'src' ? parts.slice(0, 2).join('/') : parts[0];
  };
  const rel = (file) => relative(root, file);

  const graph = new Map();
  const lazy = new Set(); // "file -> dep" of lazy imports
  for (const file of files) {
    // `import type` edges vanish at run time, but a type cycle still couples modules: count them too.
    const deps = [];
    for (const { spec, lazy: isLazy } of importsOf(file)) {
      const dep = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
      deps.push(dep);
      if (isLazy) lazy.add(`${file} -> ${dep}`);
    }
    graph.set(file, deps);
  }

  const state = new Map(); // 1: on the stack, 2: done
  const cycles = [];
  function visit(node, stack) {
    state.set(node, 1);
    stack.push(node);
    for (const dep of graph.get(node) ?? []) {
      if (!graph.has(dep)) continue;
      if (state.get(dep) === 1) cycles.push([...stack.slice(stack.indexOf(dep)), dep]);
      else if (!state.has(dep)) visit(dep, stack);
    }
    stack.pop();
    state.set(node, 2);
  }
  for (const file of graph.keys()) if (!state.has(file)) visit(file, []);

  const breaches = [];
  for (const [file, deps] of graph) {
    const from = folderOf(file);
    const a = layerOf.get(from);
    if (a === undefined) {
      breaches.push(`${rel(file)}: ${from} has no layer in .ci/check-imports.mjs`);
      continue;
    }
    const allowed = LAYERS.slice(0, a).flat().join(', ') || 'nothing outside itself';
    for (const dep of deps) {
      const to = folderOf(dep);
      if (to === from) continue;
      const b = layerOf.get(to);
      if (b !== undefined && b < a) {
        const door = join(root, to, 'index.ts');
        if (dep !== door && !lazy.has(`${file} -> ${dep}`))
          breaches.push(
            `${rel(file)} imports ${rel(dep)}: a module inside ${to}; import it from ${to}/index.ts, the folder's front door (docs/ARCHITECTURE.md, Layers)`,
          );
        continue;
      }
      const rule =
        b === undefined
          ? `${to} is in no layer`
          : b === a
            ? `${to} is in the same layer (${a + 1})`
            : `${to} is in a higher layer (${b + 1} above ${a + 1})`;
      breaches.push(
        `${rel(file)} imports ${rel(dep)}: ${rule}; ${from} may import only ${allowed} (docs/ARCHITECTURE.md, Layers)`,
      );
    }
  }

  const problems = [
    ...cycles.map((cycle) => `import cycle: ${cycle.map(rel).join(' -> ')}`),
    ...breaches.map((breach) => `layer breach: ${breach}`),
  ];
  if (problems.length > 0) return { status: 1, lines: problems };
  return {
    status: 0,
    lines: [`no import cycles and no layer breaches among ${files.length} modules`],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const { status, lines } = checkImports(root);
  for (const line of lines) (status === 0 ? console.log : console.error)(line);
  process.exit(status);
}
