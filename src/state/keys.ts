/**
 * Every Redis key of the sync state. Each carries the pipeline's hash tag (`{<pipeline>}`), which
 * keeps a pipeline's keys in one cluster slot, as the commit script needs.
 */

/** One resource's state: key -> `<version>|<hash>|…` (state-format.ts). */
export function stateKey(prefix: string, pipeline: string, resource: string): string {
  return `${prefix}:state:{${pipeline}}:${resource}`;
}

/** Counter of live (not deleted) entities beside each state hash. */
export function liveCountKey(prefix: string, pipeline: string, resource: string): string {
  return `${stateKey(prefix, pipeline, resource)}:live`;
}

/**
 * Which run committed an entity's state, and when (scripts/commit-state.ts writes it): the hash
 * `<prefix>:state-origin:{<pipeline>}:<resource>` (the state hash's slot), with `v:<version>` ->
 * `<runId>|<first commit ms>|<last commit ms>` for the run that owns a version, and `k:<key>` ->
 * `<version>|<runId>|<ms>` for an item another run committed (a replay). State committed before
 * origins were kept has none.
 */
export function originKey(prefix: string, pipeline: string, resource: string): string {
  return `${prefix}:state-origin:{${pipeline}}:${resource}`;
}
