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

/**
 * The payload history (before-images/payload-history.ts), with state's hash tag so one script
 * touches both hashes on a cluster. `<prefix>:payload:{<pipeline>}:<resource>`: key -> the payload
 * Ferry last delivered for it (before-images/payload-codec.ts); never expires, like state.
 */
export function payloadKey(prefix: string, pipeline: string, resource: string): string {
  return `${prefix}:payload:{${pipeline}}:${resource}`;
}

/**
 * A run's before-images: `<prefix>:undo:{<pipeline>}:<runId>`, `<resource>\n<key>` (built by the scripts that write it)
 * -> `<kind>|<baseVersion>|` then the payload the entity had before the run's change, or nothing
 * when Ferry kept none. Expires `undo.retentionDays` after the run's last commit.
 */
export function beforeImagesKey(prefix: string, pipeline: string, runId: string): string {
  return `${prefix}:undo:{${pipeline}}:${runId}`;
}

/**
 * How often the platform refused a change of an entity (refusals.ts):
 * `<prefix>:state-refused:{<pipeline>}:<resource>`, key -> `<base version>|<refusals>`, the
 * refusals of changes planned on that committed version. One field per entity ever refused; never
 * expires, like state.
 */
export function refusedKey(prefix: string, pipeline: string, resource: string): string {
  return `${prefix}:state-refused:{${pipeline}}:${resource}`;
}

/**
 * The platform a pipeline's state belongs to (platform-binding.ts): its normalised base URL, a
 * string under the pipeline's hash tag. Absent until a run adopts the platform it runs against.
 */
export function platformKey(prefix: string, pipeline: string): string {
  return `${prefix}:state-platform:{${pipeline}}`;
}
