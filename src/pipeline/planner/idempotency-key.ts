import { sha256Hex } from '../hashing.js';
import { canonicalJson } from '../../base/index.js';

export interface IdempotencyInput {
  pipeline: string;
  operationId: string;
  pathParams: Record<string, string>;
  query?: Record<string, string | string[]>;
  /** Canonical JSON of the body ('' when there is none). */
  bodyJson: string;
  /** Each item's committed version when it was planned. */
  baseVersions: readonly number[];
  /**
   * Each item's refusals on that version (state/refusals.ts), when any item has some: a change
   * the platform refused gets a new key each time it is planned again.
   */
  refusals?: readonly number[];
}

/** canonicalJson of path parameters, without its general machinery for the usual single one. */
function pathParamsJson(params: Record<string, string>): string {
  let out = '';
  for (const name in params) {
    if (out !== '') return canonicalJson(params);
    out = `{${JSON.stringify(name)}:${JSON.stringify(params[name])}}`;
  }
  return out || '{}';
}

/**
 * sha256 of (pipeline, operation, path params, query, canonical body, each item's base version).
 * The same change planned twice before it is committed gets the same key (the queue drops the
 * second job, the platform replays its answer); once a change is committed the base version
 * moves, so a later change back to an earlier body (A -> B -> A) gets a new key; and a refused
 * change planned again carries its refusal count, so the platform does not replay its refusal.
 */
export function idempotencyKey(input: IdempotencyInput): string {
  const query = input.query ? canonicalJson(input.query) : '';
  return sha256Hex(
    `ferry/1\n${input.pipeline}\n${input.operationId}\n${pathParamsJson(input.pathParams)}\n` +
      `${query}\n${input.bodyJson}\n${input.baseVersions.join(',')}` +
      (input.refusals ? `\nrefused:${input.refusals.join(',')}` : ''),
  );
}
