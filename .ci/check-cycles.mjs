// Fails when the project's own modules import each other in a cycle. Reads the relative imports of
// every .ts file under src/ and connectors/ (static `import`/`export ... from` and `import()`).
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

if (cycles.length > 0) {
  for (const cycle of cycles)
    console.error(`import cycle: ${cycle.map((f) => relative(root, f)).join(' -> ')}`);
  process.exit(1);
}
console.log(`no import cycles among ${files.length} modules`);
