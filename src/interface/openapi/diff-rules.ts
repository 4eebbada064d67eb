/**
 * The rules that classify one difference between two versions of a request schema, one rule per
 * kind of change (docs/INTERFACE.md, Pinning the description). Each rule looks at one schema
 * node of the pinned description (`a`) and the same node of the new one (`b`) and names what
 * changed by the JSON pointer of that node. Whether a change is breaking depends on what Ferry
 * sends (`place.sent`) and, for maxItems, on Ferry's batch.
 */
import { escapeToken as escape } from './json-pointer.js';
import { objectShape, typesOf } from './json-schema.js';
import type { Schema } from './described-operations.js';

export type ChangeKind =
  | 'operation_removed'
  | 'operation_moved'
  | 'operation_added'
  | 'body_shape_changed'
  | 'parameter_required_added'
  | 'required_property_added'
  | 'property_removed'
  | 'property_added'
  | 'type_narrowed'
  | 'type_widened'
  | 'enum_value_removed'
  | 'enum_value_added'
  | 'constraint_narrowed'
  | 'constraint_relaxed'
  | 'max_items_lowered'
  | 'max_items_raised'
  | 'security_changed'
  | 'description_changed';

export interface ContractChange {
  kind: ChangeKind;
  breaking: boolean;
  /** The catalog operation it concerns (none for an operation outside the catalog). */
  operationId?: string;
  /** JSON pointer of the changed place (in the new description; in the pinned one if removed). */
  path: string;
  message: string;
}

/** Where a rule looks: the node's pointer, its operation, and what Ferry sends there. */
export interface Place {
  pointer: string;
  operationId: string;
  /** Whether Ferry sends this property (or anything under it). */
  sent: boolean;
  /** The property's name as people read it: `gtin`, `address.city`, `(body)`. */
  label: string;
  /** Ferry's batch on this operation, when this node is the body's items array. */
  batch?: number;
}

export type SchemaRule = (a: Schema, b: Schema, place: Place) => ContractChange[];

const change = (
  place: Place,
  kind: ChangeKind,
  breaking: boolean,
  message: string,
  pointer = place.pointer,
): ContractChange => ({
  kind,
  breaking,
  operationId: place.operationId,
  path: pointer,
  message: `${place.operationId} ${place.label}: ${message}`,
});

/** A JSON type `b` no longer accepts (an integer still fits a number). */
function lostTypes(a: Schema, b: Schema): string[] {
  const before = typesOf(a);
  const after = typesOf(b);
  if (after.length === 0) return [];
  if (before.length === 0) return ['any type'];
  return before.filter((t) => !after.includes(t) && !(t === 'integer' && after.includes('number')));
}

export const typeRule: SchemaRule = (a, b, place) => {
  const lost = lostTypes(a, b);
  if (lost.length > 0) {
    return [
      change(
        place,
        'type_narrowed',
        place.sent,
        `type narrowed from ${typesOf(a).join('|') || 'any'} to ${typesOf(b).join('|')} (${lost.join(', ')} no longer accepted)`,
      ),
    ];
  }
  if (lostTypes(b, a).length > 0) {
    return [
      change(
        place,
        'type_widened',
        false,
        `type widened from ${typesOf(a).join('|')} to ${typesOf(b).join('|') || 'any'}`,
      ),
    ];
  }
  return [];
};

const enumOf = (s: Schema): unknown[] | undefined => (Array.isArray(s.enum) ? s.enum : undefined);
const shown = (v: unknown) => JSON.stringify(v);

export const enumRule: SchemaRule = (a, b, place) => {
  const before = enumOf(a);
  const after = enumOf(b);
  if (!after) {
    return before ? [change(place, 'enum_value_added', false, 'no longer limited to an enum')] : [];
  }
  if (!before) {
    return [
      change(
        place,
        'enum_value_removed',
        place.sent,
        `now limited to ${after.map(shown).join(', ')}`,
        `${place.pointer}/enum`,
      ),
    ];
  }
  const has = (list: unknown[], v: unknown) => list.some((x) => shown(x) === shown(v));
  const removed = before.filter((v) => !has(after, v));
  const added = after.filter((v) => !has(before, v));
  const out: ContractChange[] = [];
  if (removed.length > 0) {
    out.push(
      change(
        place,
        'enum_value_removed',
        place.sent,
        `enum value(s) ${removed.map(shown).join(', ')} removed`,
        `${place.pointer}/enum`,
      ),
    );
  }
  if (added.length > 0) {
    out.push(
      change(
        place,
        'enum_value_added',
        false,
        `enum value(s) ${added.map(shown).join(', ')} added`,
        `${place.pointer}/enum`,
      ),
    );
  }
  return out;
};

/** Bounds whose larger value allows less ('min') or more ('max'); pattern and multipleOf: any change. */
const BOUNDS = {
  minLength: 'min',
  minimum: 'min',
  exclusiveMinimum: 'min',
  minItems: 'min',
  maxLength: 'max',
  maximum: 'max',
  exclusiveMaximum: 'max',
} as const;

export const constraintRule: SchemaRule = (a, b, place) => {
  const out: ContractChange[] = [];
  for (const [name, side] of Object.entries(BOUNDS)) {
    const before = typeof a[name] === 'number' ? (a[name] as number) : undefined;
    const after = typeof b[name] === 'number' ? (b[name] as number) : undefined;
    if (before === after) continue;
    const narrowed =
      after !== undefined &&
      (before === undefined || (side === 'min' ? after > before : after < before));
    out.push(
      change(
        place,
        narrowed ? 'constraint_narrowed' : 'constraint_relaxed',
        narrowed && place.sent,
        `${name} ${before ?? 'none'} -> ${after ?? 'none'}`,
        `${place.pointer}/${name}`,
      ),
    );
  }
  for (const name of ['pattern', 'multipleOf', 'format']) {
    if (shown(a[name]) === shown(b[name])) continue;
    const narrowed = b[name] !== undefined;
    out.push(
      change(
        place,
        narrowed ? 'constraint_narrowed' : 'constraint_relaxed',
        narrowed && place.sent,
        `${name} ${shown(a[name]) ?? 'none'} -> ${shown(b[name]) ?? 'none'}`,
        `${place.pointer}/${name}`,
      ),
    );
  }
  return out;
};

/** maxItems of an array; on the body's items array it breaks only below Ferry's batch. */
export const maxItemsRule: SchemaRule = (a, b, place) => {
  const before = typeof a.maxItems === 'number' ? a.maxItems : Infinity;
  const after = typeof b.maxItems === 'number' ? b.maxItems : Infinity;
  if (before === after) return [];
  const pointer = `${place.pointer}/maxItems`;
  const text = `maxItems ${String(before === Infinity ? 'none' : before)} -> ${String(after === Infinity ? 'none' : after)}`;
  if (after > before) return [change(place, 'max_items_raised', false, text, pointer)];
  const breaking = place.sent && (place.batch === undefined || after < place.batch);
  const batch = place.batch === undefined ? '' : ` (Ferry sends up to ${place.batch} a request)`;
  return [change(place, 'max_items_lowered', breaking, `${text}${batch}`, pointer)];
};

export const descriptionRule: SchemaRule = (a, b, place) =>
  shown(a.description) === shown(b.description) && shown(a.title) === shown(b.title)
    ? []
    : [change(place, 'description_changed', false, 'description changed')];

/** Properties required now that were not: breaking unless Ferry sends them already. */
export function requiredRule(
  a: Schema,
  b: Schema,
  place: Place,
  sends: (name: string) => boolean,
): ContractChange[] {
  const before = new Set(objectShape(a).required);
  return objectShape(b)
    .required.filter((name) => !before.has(name))
    .map((name) =>
      change(
        { ...place, label: joinLabel(place.label, name) },
        'required_property_added',
        !(place.sent && sends(name)),
        sends(name) && place.sent
          ? 'now required (Ferry sends it already)'
          : 'now required; Ferry does not send it',
        `${place.pointer}/required`,
      ),
    );
}

/** Properties removed (breaking where Ferry sends them) and added (optional: not breaking). */
export function propertiesRule(
  a: Schema,
  b: Schema,
  place: Place,
  sends: (name: string) => boolean,
): ContractChange[] {
  const before = objectShape(a).properties;
  const after = objectShape(b);
  const out: ContractChange[] = [];
  for (const name of Object.keys(before)) {
    if (name in after.properties) continue;
    const sent = place.sent && sends(name);
    out.push(
      change(
        { ...place, label: joinLabel(place.label, name) },
        'property_removed',
        sent,
        sent ? 'removed, and Ferry sends it' : 'removed (Ferry does not send it)',
        `${place.pointer}/properties/${escape(name)}`,
      ),
    );
  }
  for (const name of Object.keys(after.properties)) {
    if (name in before || after.required.includes(name)) continue;
    out.push(
      change(
        { ...place, label: joinLabel(place.label, name) },
        'property_added',
        false,
        'new optional property',
        `${place.pointer}/properties/${escape(name)}`,
      ),
    );
  }
  return out;
}

export const joinLabel = (parent: string, name: string): string =>
  parent === '(body)' || parent === '(item)' ? name : `${parent}.${name}`;

/** The rules every schema node goes through (objects and arrays are walked by contract-diff). */
export const NODE_RULES: readonly SchemaRule[] = [
  typeRule,
  enumRule,
  constraintRule,
  maxItemsRule,
  descriptionRule,
];
