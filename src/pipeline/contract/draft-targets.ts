/**
 * The described properties a draft fills (`ferry pipeline new`): every scalar or list property of
 * the item, nested objects and the objects of arrays (`prices[].amount`) included, with the
 * resource each is about.
 */
import { type Schema, isSchemaObject, objectShape, typesOf } from '../../interface/index.js';
import { subjectOf } from './column-names.js';

/** One described property to fill: where it stands, its schema, whether it is required. */
export interface Target {
  /** 'prices[].amount' for display; the tokens for the writer. */
  label: string;
  tokens: string[];
  schema: Schema;
  required: boolean;
  subject: string | undefined;
  key?: true;
}

/** A column mapped to a target: the field spec line's inner text. */
export interface Mapped {
  column: string;
  spec: string;
}

export const q = (s: string): string => JSON.stringify(s);
/** An object schema, typed so or only by its properties (through allOf, as vendors write them). */
const isObjectSchema = (s: Schema): boolean =>
  typesOf(s).includes('object') || Object.keys(objectShape(s).properties).length > 0;
const isArrayOfObjects = (s: Schema): s is Schema & { items: Schema } =>
  isSchemaObject(s.items) && isObjectSchema(s.items);

/** Collects the targets of an object schema (objects and arrays of objects recursed into). */
export function targetsOf(
  schema: Schema,
  tokens: string[],
  subject: string | undefined,
  skip: string,
  out: Target[],
): void {
  const shape = objectShape(schema);
  for (const [name, property] of Object.entries(shape.properties)) {
    if (tokens.length === 0 && name === skip) continue;
    if (!isSchemaObject(property)) continue;
    const here = [...tokens, name];
    const own = subjectOf(name).subject ?? subject;
    if (isObjectSchema(property) && !isSchemaObject(property.items)) {
      targetsOf(property, here, own, skip, out);
    } else if (isArrayOfObjects(property)) {
      targetsOf(property.items, [...here, '[]'], own, skip, out);
    } else {
      out.push({
        label: here.join('.').replace(/\.\[\]/g, '[]'),
        tokens: here,
        schema: property,
        required: shape.required.includes(name),
        subject: own,
      });
    }
  }
}
