/**
 * Does a pipeline fit the platform's description? For each operation an entity uses: it is
 * described; its request schema's required properties are mapped (the key included); no mapped
 * property is one the schema forbids; each mapped field's JSON type can be one the schema allows.
 * `ferry interface check` reports these; nothing here guesses at run time.
 */
import {
  type Schema,
  isSchemaObject,
  objectShape,
  typesOf,
  type CatalogMatch,
} from '../../interface/index.js';
import type { FieldSpec } from '../definition/field-schema.js';
import type { PipelineDefinition } from '../definition/definition-types.js';
import { itemSchemaOf } from './item-schema.js';

export interface ContractProblem {
  code:
    | 'OPERATION_NOT_DESCRIBED'
    | 'BODY_NOT_UNDERSTOOD'
    | 'REQUIRED_NOT_MAPPED'
    | 'PROPERTY_NOT_ALLOWED'
    | 'TYPE_CANNOT_FIT'
    | 'UNITS'
    | 'AUTH_MISMATCH'
    | 'PIPELINE_INVALID';
  message: string;
  operationId?: string;
  pipeline?: string;
  field?: string;
}

/** The JSON type a field spec produces, or undefined when it cannot be told (custom code). */
function producedType(spec: FieldSpec): string | undefined {
  if (spec.array) return 'array';
  if (spec.object) return 'object';
  if (spec.compute) return undefined;
  if (spec.value !== undefined) {
    const v = spec.value;
    if (v === null) return 'null';
    if (Array.isArray(v)) return 'array';
    if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
    return typeof v;
  }
  if (spec.split) return 'array';
  if (spec.transform) return undefined; // a transform may return any type
  switch (spec.type) {
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'decimal':
      return spec.minorUnits ? 'integer' : 'decimal';
    default:
      return 'string';
  }
}

function typeProblem(produced: string, schema: Schema): string | undefined {
  const allowed = typesOf(schema);
  if (allowed.length === 0) return undefined; // any type
  if (allowed.includes(produced)) return undefined;
  if (produced === 'integer' && allowed.includes('number')) return undefined;
  if (produced === 'decimal') {
    // Sent as a decimal string, or as a JSON number written from its digits where the schema
    // wants a number (each value's digits are checked against the schema at plan time).
    if (['string', 'number', 'integer'].some((t) => allowed.includes(t))) return undefined;
    return `a decimal field is sent as a decimal string or number; the schema wants ${allowed.join(' or ')}`;
  }
  return `the mapping makes ${produced === 'string' ? 'a string' : `a ${produced}`}; the schema wants ${allowed.join(' or ')}`;
}

/** Fits an object spec's fields into an object schema; `prefix` is the dotted field path. */
function fitObject(
  fields: Record<string, FieldSpec>,
  schema: Schema,
  prefix: string,
  presentKeys: readonly string[],
  checkRequired: boolean,
  report: (code: ContractProblem['code'], field: string, message: string) => void,
): void {
  const shape = objectShape(schema);
  if (checkRequired) {
    for (const name of shape.required) {
      if (name in fields || presentKeys.includes(name)) continue;
      report(
        'REQUIRED_NOT_MAPPED',
        prefix + name,
        `required property "${prefix + name}" is not mapped`,
      );
    }
  }
  for (const [name, spec] of Object.entries(fields)) {
    const property = shape.properties[name];
    if (!property) {
      if (shape.closed) {
        report(
          'PROPERTY_NOT_ALLOWED',
          prefix + name,
          `"${prefix + name}" is not a property of the request schema (it allows ${Object.keys(shape.properties).join(', ') || 'none'})`,
        );
      }
      continue;
    }
    fitField(spec, property, prefix + name, report);
  }
}

/**
 * A decimal column into a property that takes integers only: its fraction would be refused at
 * plan time (or, were it written, read as so many of the property's units: 1273.00 kroner sent
 * as 1273 øre). Minor units say how to write it; the fix names the field's own column.
 */
function unitsProblem(spec: FieldSpec, schema: Schema, field: string): string | undefined {
  const allowed = typesOf(schema);
  if (producedType(spec) !== 'decimal' || !allowed.includes('integer')) return undefined;
  if (allowed.includes('number') || allowed.includes('string')) return undefined;
  const column = spec.column ? ` (column ${spec.column})` : '';
  return (
    `"${field}" is an integer property and the mapping gives it a decimal${column}: ` +
    'an amount there is counted in minor units (øre, cents). Fix: give the field ' +
    'minorUnits: {column: COLUMN} (the column holding the ISO 4217 currency code) or ' +
    'minorUnits: {code: NOK}, so 1273.00 NOK is written as 127300'
  );
}

function fitField(
  spec: FieldSpec,
  schema: Schema,
  field: string,
  report: (code: ContractProblem['code'], field: string, message: string) => void,
): void {
  const produced = producedType(spec);
  if (produced === undefined) return;
  const units = unitsProblem(spec, schema, field);
  if (units) {
    report('UNITS', field, units);
    return;
  }
  const problem = typeProblem(produced, schema);
  if (problem) {
    report('TYPE_CANNOT_FIT', field, `"${field}": ${problem}`);
    return;
  }
  if (spec.object && isSchemaObject(schema))
    fitObject(spec.object, schema, `${field}.`, [], true, report);
  if (spec.array && isSchemaObject(schema.items)) {
    for (const element of spec.array) fitField(element, schema.items, `${field}[]`, report);
  }
}

export function fitPipeline(pipeline: PipelineDefinition, match: CatalogMatch): ContractProblem[] {
  const problems: ContractProblem[] = [];
  for (const entity of pipeline.entities) {
    for (const ref of Object.values(entity.operations)) {
      const operationId = ref.operation.id;
      const report = (code: ContractProblem['code'], field: string | undefined, message: string) =>
        problems.push({
          code,
          message: `${pipeline.name} ${entity.name} (${operationId}): ${message}`,
          operationId,
          pipeline: pipeline.name,
          ...(field ? { field } : {}),
        });
      const op = match.matched.get(operationId);
      if (!op) {
        report('OPERATION_NOT_DESCRIBED', undefined, 'the description has no such operation');
        continue;
      }
      if (ref.operation.kind === 'delete' && ref.binding.body === 'none') continue;
      const item = itemSchemaOf(ref, op);
      if (!item) {
        report(
          'BODY_NOT_UNDERSTOOD',
          undefined,
          ref.binding.body === 'items'
            ? 'the request body is neither an array of items nor an object with one array property'
            : 'the operation describes no JSON request body',
        );
        continue;
      }
      if (ref.operation.kind === 'delete') continue; // its items are keys only
      const keyField = entity.mapping.keyField;
      const keys = keyField ? [keyField] : [];
      if (keyField && !(keyField in objectShape(item).properties) && objectShape(item).closed) {
        report(
          'PROPERTY_NOT_ALLOWED',
          keyField,
          `the key property "${keyField}" is not in the item schema; set interface.bindings.${operationId}.keyField`,
        );
      }
      fitObject(entity.spec.fields as Record<string, FieldSpec>, item, '', keys, true, report);
    }
  }
  return problems;
}
