/**
 * What changed between the pinned description and the one the platform publishes now, each change
 * classified breaking or not for what Ferry uses (docs/INTERFACE.md, Pinning the description).
 * Pure: two dereferenced documents and Ferry's usage in, the changes out. Operations are paired by
 * the catalog operation they match (method and path template); the operation-level rules are
 * here, the schema-level ones in diff-rules.ts.
 */
import { canonicalJson } from '../../base/index.js';
import { OPERATIONS } from '../catalog.js';
import { itemsArrayOf } from './described-bindings.js';
import {
  describedOperations,
  type DescribedOperation,
  type Schema,
} from './described-operations.js';
import {
  type ContractChange,
  type Place,
  NODE_RULES,
  joinLabel,
  propertiesRule,
  requiredRule,
} from './diff-rules.js';
import { placeOf } from './file-pointers.js';
import { escapeToken, pointerOf, resolvePointer } from './json-pointer.js';
import { isSchemaObject, objectShape } from './json-schema.js';
import type { OpenApiDoc } from './load-description.js';
import { matchCatalog, templateShape } from './match-catalog.js';

export type { ChangeKind, ContractChange } from './diff-rules.js';

/** What Ferry uses of one operation: the item properties it sends, the items per request. */
export interface OperationUsage {
  /** Top-level item properties sent (the key included); absent: every property counts as sent. */
  sends?: readonly string[];
  batch?: number;
}

/** Catalog operation id -> its use; an operation not named is one Ferry does not use. */
export type ContractUsage = Readonly<Record<string, OperationUsage>>;

export interface ContractDiff {
  breaking: ContractChange[];
  nonBreaking: ContractChange[];
}

interface Side {
  doc: OpenApiDoc;
  op: DescribedOperation;
}

const MAX_DEPTH = 32;

/**
 * The pairs of schema nodes walked already (resolved descriptions share a node every `$ref` names:
 * walked once, a diff stays linear in the description, and a change is named once, where it is
 * written), separately for what Ferry sends and what it does not.
 */
type Walked = Map<boolean, Map<Schema, Set<Schema>>>;

function firstWalk(walked: Walked, a: Schema, b: Schema, sent: boolean): boolean {
  let bySide = walked.get(sent);
  if (!bySide) walked.set(sent, (bySide = new Map()));
  let seen = bySide.get(a);
  if (!seen) bySide.set(a, (seen = new Set()));
  if (seen.has(b)) return false;
  seen.add(b);
  return true;
}

/** Where each property of `schema` is written: through the `$ref` or `allOf` part that holds it. */
function propertyPlaces(schema: Schema, pointer: string): Map<string, string> {
  const out = new Map<string, string>();
  const seen = new Set<Schema>();
  const visit = (s: Schema, at: string) => {
    if (seen.has(s)) return;
    seen.add(s);
    const here = placeOf(s, at);
    if (isSchemaObject(s.properties)) {
      for (const name of Object.keys(s.properties)) {
        out.set(name, `${here}/properties/${escapeToken(name)}`);
      }
    }
    if (Array.isArray(s.allOf)) {
      s.allOf.forEach((part, i) => {
        if (isSchemaObject(part)) visit(part, `${here}/allOf/${i}`);
      });
    }
  };
  visit(schema, pointer);
  return out;
}

/**
 * Walks two versions of one schema node: the node rules, then its properties and items. A node a
 * `$ref` led to is named where it is written (file-pointers.ts), not where it was reached.
 */
function walk(
  a: Schema,
  b: Schema,
  reached: Place,
  sends: (name: string) => boolean,
  depth: number,
  walked: Walked = new Map(),
): ContractChange[] {
  if (!firstWalk(walked, a, b, reached.sent)) return [];
  const place: Place = { ...reached, pointer: placeOf(b, reached.pointer) };
  const out = NODE_RULES.flatMap((rule) => rule(a, b, place));
  if (depth >= MAX_DEPTH) return out; // a circular schema ($ref to itself) stops here
  const before = objectShape(a).properties;
  const after = objectShape(b).properties;
  if (Object.keys(before).length > 0 || Object.keys(after).length > 0) {
    out.push(...requiredRule(a, b, place, sends), ...propertiesRule(a, b, place, sends));
    const places = propertyPlaces(b, place.pointer);
    for (const [name, property] of Object.entries(before)) {
      const next = after[name];
      if (!next) continue;
      const child: Place = {
        pointer: places.get(name) ?? `${place.pointer}/properties/${escapeToken(name)}`,
        operationId: place.operationId,
        sent: place.sent && sends(name),
        label: joinLabel(place.label, name),
      };
      out.push(...walk(property, next, child, () => true, depth + 1, walked));
    }
  }
  if (isSchemaObject(a.items) && isSchemaObject(b.items)) {
    const child: Place = { ...place, pointer: `${place.pointer}/items`, label: `${place.label}[]` };
    delete child.batch;
    out.push(...walk(a.items, b.items, child, () => true, depth + 1, walked));
  }
  return out;
}

/** The pointer of an operation's JSON request body schema (the media type it was read from). */
function bodyPointer(side: Side): string {
  const content = resolvePointer(side.doc, `${side.op.pointer}/requestBody/content`);
  const type = Object.keys(isSchemaObject(content) ? content : {}).find((t) =>
    /^application\/([\w.-]+\+)?json\b/i.test(t),
  );
  return `${side.op.pointer}/requestBody/content/${escapeToken(type ?? 'application/json')}/schema`;
}

function bodyRule(
  id: string,
  a: Side,
  b: Side,
  used: OperationUsage | undefined,
): ContractChange[] {
  const shape = (message: string, breaking: boolean): ContractChange[] => [
    {
      kind: 'body_shape_changed',
      breaking,
      operationId: id,
      path: `${b.op.pointer}/requestBody`,
      message: `${id}: ${message}`,
    },
  ];
  const before = a.op.requestSchema;
  const after = b.op.requestSchema;
  if (!before && !after) return [];
  if (!after) return shape('no longer takes a JSON request body', used !== undefined);
  if (!before) {
    return shape('now takes a JSON request body', used !== undefined && b.op.requestRequired);
  }
  const pointer = placeOf(after, bodyPointer(b));
  const kind = OPERATIONS.find((o) => o.id === id)?.kind;
  const sent = used !== undefined;
  if (kind === 'upsert' || kind === 'patch' || kind === 'delete') {
    const itemsA = itemsArrayOf(before);
    const itemsB = itemsArrayOf(after);
    if (itemsA && itemsB && itemsA.envelope === itemsB.envelope) {
      const arrayPointer = itemsB.envelope
        ? placeOf(itemsB.array, `${pointer}/properties/${escapeToken(itemsB.envelope)}`)
        : pointer;
      const array: Place = { pointer: arrayPointer, operationId: id, sent, label: '(body)' };
      if (used?.batch !== undefined) array.batch = used.batch;
      const out = NODE_RULES.flatMap((rule) => rule(itemsA.array, itemsB.array, array));
      if (isSchemaObject(itemsA.array.items) && isSchemaObject(itemsB.array.items)) {
        const item: Place = {
          pointer: `${arrayPointer}/items`,
          operationId: id,
          sent,
          label: '(item)',
        };
        const sends = used?.sends ? new Set(used.sends) : undefined;
        out.push(
          ...walk(itemsA.array.items, itemsB.array.items, item, (n) => !sends || sends.has(n), 0),
        );
      }
      return out;
    }
    if (itemsA || itemsB) {
      const says = (s: typeof itemsA) =>
        !s ? 'no array of items' : s.envelope ? `{"${s.envelope}": [...]}` : 'a JSON array';
      return shape(`body shape changed from ${says(itemsA)} to ${says(itemsB)}`, sent);
    }
  }
  return walk(before, after, { pointer, operationId: id, sent, label: '(body)' }, () => true, 0);
}

/** New required query or header parameters (path parameters are matched by position). */
function parameterRule(id: string, a: Side, b: Side, used: boolean): ContractChange[] {
  const out: ContractChange[] = [];
  const raw = resolvePointer(b.doc, `${b.op.pointer}/parameters`);
  const list = Array.isArray(raw) ? (raw as Schema[]) : [];
  for (const p of b.op.parameters) {
    if (p.in === 'path') continue;
    const old = a.op.parameters.find((o) => o.name === p.name && o.in === p.in);
    const index = list.findIndex((o) => o.name === p.name && o.in === p.in);
    const pointer =
      index >= 0 ? `${b.op.pointer}/parameters/${index}` : `${b.op.pointer}/parameters`;
    if (p.required && !old?.required) {
      out.push({
        kind: 'parameter_required_added',
        breaking: used,
        operationId: id,
        path: pointer,
        message: `${id}: ${p.in} parameter "${p.name}" is now required`,
      });
    }
    if (old?.schema && p.schema) {
      const place: Place = {
        pointer: `${pointer}/schema`,
        operationId: id,
        sent: used,
        label: p.name,
      };
      out.push(...walk(old.schema, p.schema, place, () => true, 0));
    }
  }
  return out;
}

const schemeOf = (doc: OpenApiDoc, name: string): string => {
  const scheme = resolvePointer(doc, pointerOf(['components', 'securitySchemes', name]));
  if (!isSchemaObject(scheme)) return 'null';
  return canonicalJson({ ...scheme, description: null });
};

/** A new required security scheme, or a scheme Ferry may use defined otherwise. */
function securityRule(id: string, a: Side, b: Side): ContractChange[] {
  const known = new Set(a.op.security.flat());
  const own = resolvePointer(b.doc, `${b.op.pointer}/security`) !== undefined;
  const pointer = own ? `${b.op.pointer}/security` : '/security';
  const out: ContractChange[] = [];
  const after = b.op.security;
  if (
    after.length > 0 &&
    (a.op.security.length === 0 || after.every((alt) => alt.some((s) => !known.has(s))))
  ) {
    out.push({
      kind: 'security_changed',
      breaking: true,
      operationId: id,
      path: pointer,
      message: `${id}: now requires ${after.map((alt) => alt.join(' + ')).join(' or ')} (was ${a.op.security.map((alt) => alt.join(' + ')).join(' or ') || 'none'})`,
    });
  }
  for (const name of new Set(after.flat())) {
    if (!known.has(name) || schemeOf(a.doc, name) === schemeOf(b.doc, name)) continue;
    out.push({
      kind: 'security_changed',
      breaking: true,
      operationId: id,
      path: pointerOf(['components', 'securitySchemes', name]),
      message: `${id}: security scheme "${name}" is defined otherwise`,
    });
  }
  return out;
}

function describedTextRule(id: string, a: Side, b: Side): ContractChange[] {
  const text = (s: Side) => {
    const op = resolvePointer(s.doc, s.op.pointer) as Schema;
    return canonicalJson([op.summary ?? null, op.description ?? null]);
  };
  return text(a) === text(b)
    ? []
    : [
        {
          kind: 'description_changed',
          breaking: false,
          operationId: id,
          path: b.op.pointer,
          message: `${id}: summary or description changed`,
        },
      ];
}

function operationChanges(
  id: string,
  a: Side,
  b: Side,
  used: OperationUsage | undefined,
): ContractChange[] {
  return [
    ...describedTextRule(id, a, b),
    ...parameterRule(id, a, b, used !== undefined),
    ...(used ? securityRule(id, a, b) : []),
    ...bodyRule(id, a, b, used),
  ];
}

/** An operation of the pin that the new description lacks: moved (same operationId) or removed. */
function goneRule(
  id: string,
  a: Side,
  to: readonly DescribedOperation[],
  used: boolean,
): ContractChange {
  const moved = a.op.operationId && to.find((o) => o.operationId === a.op.operationId);
  if (moved) {
    return {
      kind: 'operation_moved',
      breaking: used,
      operationId: id,
      path: moved.pointer,
      message: `${id}: moved from ${a.op.method} ${a.op.path} to ${moved.method} ${moved.path}`,
    };
  }
  return {
    kind: 'operation_removed',
    breaking: used,
    operationId: id,
    path: a.op.pointer,
    message: `${id}: ${a.op.method} ${a.op.path} is no longer described`,
  };
}

/**
 * The changes from `from` (pinned) to `to` (published now). `usage` names the operations Ferry
 * uses and what it sends; without it every catalog operation counts as used, every property sent.
 */
export function diffContract(
  from: OpenApiDoc,
  to: OpenApiDoc,
  usage?: ContractUsage,
): ContractDiff {
  const fromOps = describedOperations(from);
  const toOps = describedOperations(to);
  const before = matchCatalog(fromOps).matched;
  const after = matchCatalog(toOps).matched;
  const changes: ContractChange[] = [];
  const movedTo = new Set<string>();
  for (const [id, op] of before) {
    const use = usage ? usage[id] : {};
    const next = after.get(id);
    if (next) {
      changes.push(...operationChanges(id, { doc: from, op }, { doc: to, op: next }, use));
      continue;
    }
    const gone = goneRule(id, { doc: from, op }, toOps, use !== undefined);
    if (gone.kind === 'operation_moved') movedTo.add(gone.path);
    changes.push(gone);
  }
  const shapes = new Set(fromOps.map((o) => `${o.method} ${templateShape(o.path)}`));
  const catalogIdOf = new Map([...after].map(([id, op]) => [op, id]));
  for (const op of toOps) {
    if (shapes.has(`${op.method} ${templateShape(op.path)}`) || movedTo.has(op.pointer)) continue;
    const id = catalogIdOf.get(op);
    changes.push({
      kind: 'operation_added',
      breaking: false,
      ...(id ? { operationId: id } : {}),
      path: op.pointer,
      message: `${id ? `${id}: ` : ''}${op.method} ${op.path} is new`,
    });
  }
  return {
    breaking: changes.filter((c) => c.breaking),
    nonBreaking: changes.filter((c) => !c.breaking),
  };
}
