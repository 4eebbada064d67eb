// Fails when the project's own modules import each other in a cycle, or when a folder imports one
// of a layer above its own (or a sibling of its layer): the layers of docs/ARCHITECTURE.md. Reads
// the relative imports of every .ts file under src/ and connectors/ (static `import`/`export ...
// from` and `import()`).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const files = [];
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) files.push(path);
  }
}
walk(join(root, 'src'));
walk(join(root, 'connectors'));

// Lowest first. A folder may import its own modules and those of the layers below; folders of
// the same layer are independent of each other.
const LAYERS = [
  ['src/errors'],
  ['src/base', 'src/logging'],
  ['src/config'],
  ['src/redis', 'src/interface', 'connectors'],
  ['src/pipeline', 'src/simulator'],
  ['src/presets', 'src/queue'],
  ['src/schedules'],
  ['src/serve', 'src/demo'],
  ['src/cli'],
];
const layerOf = new Map(LAYERS.flatMap((folders, i) => folders.map((f) => [f, i])));
/** The folder a file belongs to: `connectors`, or `src/<folder>`. */
function folderOf(file) {
  const parts = relative(root, file).split('/');
  return parts[0] === 'connectors' ? 'connectors' : parts.slice(0, 2).join('/');
}

const importRe =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
const graph = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const deps = [];
  for (const m of text.matchAll(importRe)) {
    // `import type` edges vanish at run time, but a type cycle still couples modules: count them too.
    const spec = m[1] ?? m[2];
    deps.push(resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
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
  for (const dep of deps) {
    const to = folderOf(dep);
    if (to === from || !graph.has(dep)) continue;
    const [a, b] = [layerOf.get(from), layerOf.get(to)];
    if (a === undefined)
      breaches.push(`${relative(root, file)}: ${from} has no layer in .ci/check-imports.mjs`);
    else if (b === undefined || b >= a) {
      const allowed = LAYERS.slice(0, a).flat().join(', ');
      breaches.push(
        `${relative(root, file)} imports ${relative(root, dep)}: ${from} may import only from ${allowed} (docs/ARCHITECTURE.md, Layers)`,
      );
    }
  }
}

for (const cycle of cycles)
  console.error(`import cycle: ${cycle.map((f) => relative(root, f)).join(' -> ')}`);
for (const breach of breaches) console.error(`layer breach: ${breach}`);
if (cycles.length > 0 || breaches.length > 0) process.exit(1);
console.log(`no import cycles and no layer breaches among ${files.length} modules`);
