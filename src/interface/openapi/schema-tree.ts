/**
 * A resolved schema (a graph: dereference.ts shares a place every `$ref` names, and leaves a
 * circular `$ref` in place) as the tree ajv compiles, in time and size linear in the
 * description: a node reached more than once, or a circular `$ref`'s target, is written once
 * under `$defs` and named by `$ref`; ajv compiles each of those once. Without sharing it is a
 * plain copy.
 */
import type { Schema } from './described-operations.js';
import { leftoverTarget } from './file-pointers.js';

const PREFIX = 'ferry-';

const childrenOf = (node: object): unknown[] => Object.values(node);

/** The schema `{$ref}` names in a tree made here (`#` or `#/$defs/...`), else the schema itself. */
export function inTree(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (ref === '#') return root;
  if (typeof ref !== 'string' || !ref.startsWith(`#/$defs/${PREFIX}`)) return schema;
  const defs = root.$defs as Record<string, Schema> | undefined;
  return defs?.[ref.slice('#/$defs/'.length)] ?? schema;
}

export function schemaTree(schema: Schema): Schema {
  // Who is reached more than once, and which nodes circular `$ref`s stand for.
  const reached = new Map<object, number>();
  const named = new Set<object>();
  const stack: object[] = [schema];
  reached.set(schema, 1);
  while (stack.length > 0) {
    for (const child of childrenOf(stack.pop() as object)) {
      if (!child || typeof child !== 'object') continue;
      const target = leftoverTarget(child);
      const next = target ?? child;
      if (target) named.add(target);
      const count = reached.get(next) ?? 0;
      reached.set(next, count + 1);
      if (count === 0) stack.push(next);
    }
  }
  const names = new Map<object, string>();
  const defs: Record<string, unknown> = {};
  const refTo = (node: object): Schema => {
    if (node === schema) return { $ref: '#' };
    let name = names.get(node);
    if (name === undefined) {
      name = `${PREFIX}${names.size}`;
      names.set(node, name);
      defs[name] = build(node);
    }
    return { $ref: `#/$defs/${name}` };
  };
  const emit = (node: unknown): unknown => {
    if (!node || typeof node !== 'object') return node;
    const target = leftoverTarget(node);
    if (target) return refTo(target);
    if ((reached.get(node) ?? 0) > 1 || named.has(node)) return refTo(node);
    return build(node);
  };
  function build(node: object): unknown {
    if (Array.isArray(node)) return node.map(emit);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) out[k] = emit(v);
    return out;
  }
  const tree = build(schema) as Schema;
  if (names.size > 0) {
    const own = tree.$defs && typeof tree.$defs === 'object' ? tree.$defs : {};
    tree.$defs = { ...own, ...defs };
  }
  return tree;
}
