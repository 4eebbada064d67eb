/**
 * Every planned body as it goes on the wire, checked against the description at plan time: a
 * delete's keys in the shape its binding states (key objects or bare keys in the body and its
 * envelope, or the query or path parameter), and a patch's fields (a snapshot's changed fields are
 * a part of a payload checked whole, which the patch schema may still refuse). A body that does
 * not fit stops the plan (BodyShapeError) naming the operation, the shape and the pointer: the
 * shape is the binding's, the same for every item, so it is a setting to fix, not a record.
 */
import {
  deleteParts,
  deleteShapeText,
  type DescribedOperation,
  type ItemContract,
  itemsArrayOf,
  type Schema,
} from '../../interface/index.js';
import type { OperationRef } from '../definition/definition-types.js';
import { BodyShapeError } from '../errors.js';
import type { DeliveryItem } from '../types.js';

export type WireCheck = (item: DeliveryItem) => void;
type Compile = (schema: Schema, pointer: string) => ItemContract;

/** The schema of the parameter a delete by query or path puts its keys in, and its place. */
function keyParameter(
  ref: OperationRef,
  op: DescribedOperation,
): { schema: Schema; where: string } | undefined {
  const { binding } = ref;
  if (binding.deleteStyle === 'path') {
    // The binding renames path parameters; the described path has the one it fills.
    const param = op.parameters.find((p) => p.in === 'path');
    return param?.schema && { schema: param.schema, where: `the path parameter {${param.name}}` };
  }
  const param = op.parameters.find((p) => p.in === 'query' && p.name === binding.deleteQueryParam);
  const schema = param?.schema;
  if (!schema) return undefined;
  const items = schema.items;
  return {
    schema:
      items && typeof items === 'object' && !Array.isArray(items) ? (items as Schema) : schema,
    where: `the query parameter ${binding.deleteQueryParam}`,
  };
}

function deleteCheck(ref: OperationRef, op: DescribedOperation, compile: Compile) {
  const { binding } = ref;
  if (binding.body !== 'none') {
    if (!op.requestSchema) return undefined;
    const body = compile(op.requestSchema, `${op.pointer}/requestBody`);
    return (key: string) => {
      const items = deleteParts(binding, [key]).body;
      const sent = binding.envelope ? { [binding.envelope]: items } : items;
      return body.check(sent)?.[0];
    };
  }
  const param = keyParameter(ref, op);
  if (!param) return undefined;
  const contract = compile(param.schema, `${op.pointer}/parameters`);
  return (key: string) => {
    const v = contract.check(key)?.[0];
    return v && { pointer: v.pointer, message: `${v.message} (${param.where})` };
  };
}

function patchCheck(op: DescribedOperation, compile: Compile) {
  const array = itemsArrayOf(op.requestSchema);
  const schema = array?.array.items;
  if (!array || !schema || typeof schema !== 'object' || Array.isArray(schema)) return undefined;
  const contract = compile(schema as Schema, op.pointer);
  const prefix = array.envelope ? `/${array.envelope}/0` : '/0';
  return (payload: unknown) => {
    const v = contract.check(payload)?.[0];
    return v && { pointer: prefix + v.pointer, message: v.message };
  };
}

/** The check of `ref`'s planned items, or undefined when the description leaves nothing to check. */
export function wireCheckOf(
  pipeline: string,
  ref: OperationRef,
  op: DescribedOperation,
  compile: Compile,
): WireCheck | undefined {
  const { operation, binding } = ref;
  const stop = (key: string, v: { pointer: string; message: string }, shape: string) => {
    throw new BodyShapeError({
      pipeline,
      operationId: operation.id,
      shape,
      pointer: v.pointer,
      message: v.message,
      describedAt: op.pointer,
      key,
    });
  };
  if (operation.kind === 'delete') {
    const check = deleteCheck(ref, op, compile);
    const shape = deleteShapeText(binding);
    return (
      check &&
      ((item) => {
        const v = check(item.key);
        if (v) stop(item.key, v, shape);
      })
    );
  }
  if (operation.kind === 'patch' && binding.body === 'items') {
    const check = patchCheck(op, compile);
    const shape = binding.envelope
      ? `an array of changed fields in {"${binding.envelope}": [...]}`
      : 'an array of changed fields';
    return (
      check &&
      ((item) => {
        const v = check(item.payload);
        if (v) stop(item.key, v, shape);
      })
    );
  }
  return undefined;
}
