/**
 * Every Redis key delivery writes, in one place. They all sit under `<prefix>:{q}`: the hash tag
 * puts BullMQ's queue keys and Ferry's own run and dead-letter keys in one Redis Cluster slot, so
 * the Lua scripts that touch several of them work on a cluster too. (State keys are the pipeline
 * module's: `<prefix>:state:{<pipeline>}:...`.)
 */
export const LANES = ['interactive', 'bulk'] as const;
export type Lane = (typeof LANES)[number];

export interface DeliveryKeys {
  /** BullMQ's `prefix` option: its keys become `<prefix>:{q}:delivery-<lane>:...`. */
  readonly bullPrefix: string;
  /** Set while the whole delivery waits for a platform's Retry-After (PTTL = time left). */
  readonly pause: string;
  /** The grants of delivery.ratePerSecond in the last second, shared by every worker process. */
  readonly rateBucket: string;
  /** Ids of the rate window's grants. */
  readonly rateSequence: string;
  /**
   * The installation's rate limit under `ratePerSecond: auto` (hash: discovered grants per second,
   * the platform's stated quota and window): kept across runs, so each night starts where the
   * last one ended.
   */
  readonly rateLimit: string;
  /** Set for a window while interactive requests ask for grants (bulk then keeps to its share). */
  readonly rateInteractive: string;
  /** Pipeline -> last version handed to a run (versions only grow). */
  readonly versions: string;
  /** Run ids by start time. */
  readonly runIndex: string;
  /** Set once the per-pipeline run indexes hold the runs recorded before they existed. */
  readonly pipelineRunIndexesFilled: string;
  /** Ids of the runs that have not finished. */
  readonly activeRuns: string;
  readonly dlqEntries: string;
  readonly dlqIndex: string;
  /** Set once the dead letters written before the by-sets existed are in them. */
  readonly dlqIndexed: string;
  /** `<pipeline>|<operation>|<key>` -> the id of the item's open dead letter. */
  readonly dlqOpen: string;
  /** Entry id -> `<failures>|<write id>|<items>` (dead-letter-store.ts). */
  readonly dlqFailures: string;
  /** Dead-letter ids by time, of one pipeline, run, operation or item key. */
  dlqBy(dimension: 'pipeline' | 'run' | 'operation' | 'key', value: string): string;
  /** The installation's epoch {id, createdAt}: a Redis that lost its data no longer has it. */
  readonly epoch: string;
  /** The last loss of Redis's data that a Ferry process noticed, and the pipelines resent since. */
  readonly dataLoss: string;
  /** Names of the pipelines whose schedule an operator paused. */
  readonly pausedSchedules: string;
  /** Pipeline -> the ETag/Last-Modified of its URL source when last read by a schedule. */
  readonly sourceValidators: string;
  /**
   * A pipeline's pickup from an SFTP or S3 source: the files its runs took and not yet moved
   * (`taken:<name>`), and the newest export read (`newest`), so none is read twice or out of order.
   */
  remotePickup(pipeline: string): string;
  /** The installation's figures for /metrics (metrics/metric-fields.ts). */
  readonly metrics: string;
  /** The platform's description as accepted (`ferry interface pull`/`accept`): text, hash, source. */
  readonly contractPin: string;
  /** The description as last read before a run, and its changes to the pin (contract/pin-store.ts). */
  readonly contractSeen: string;
  /** A description runs were planned by, by its sha256 (contract/run-description.ts). */
  contractText(sha256: string): string;
  /** Operator actions in the console, newest first (JSON each). */
  readonly audit: string;
  /** One pipeline's run ids by start time. */
  pipelineRunIndex(pipeline: string): string;
  /** Items delivered in one minute (minutes since the epoch), for the console's chart. */
  throughput(minute: number): string;
  run(runId: string): string;
  runErrors(runId: string): string;
  /** What the run planned for each key, for the entity trace (run-changes.ts). */
  runChanges(runId: string): string;
  /** The rows the run rejected, by key, for the entity trace (run-rejected.ts). */
  runRejected(runId: string): string;
  runStage(runId: string, stage: number): string;
  /** Job id -> the job's requests (JSON), for the jobs of the run not settled yet. */
  runPayloads(runId: string): string;
  runSettled(runId: string): string;
  /** What jobs under way counted into their run before they settled (`<jobId>|<field>` -> n). */
  runCounted(runId: string): string;
  runReleaseLock(runId: string): string;
  /** Holds the id of the pipeline's active run: one run per pipeline at a time. */
  activeRun(pipeline: string): string;
  /** A pipeline's breaker for platform-wide refusals (worker/breaker.ts). */
  breaker(pipeline: string): string;
}

export function queueName(lane: Lane): string {
  return `delivery-${lane}`;
}

/** The queue of schedule ticks: one BullMQ job scheduler per scheduled pipeline. */
export const SCHEDULE_QUEUE = 'schedules';

/**
 * The keys of what each platform has its own of (docs/PLATFORMS.md): the rate window and pause
 * (its rate budget) and the pinned description. `default`'s are the installation's keys as they
 * always were; another platform's sit beside them under `platform:<name>`, in the same slot.
 */
export function platformKeys(keys: DeliveryKeys, platform: string | undefined): DeliveryKeys {
  if (platform === undefined || platform === 'default') return keys;
  const own = `${keys.bullPrefix}:platform:${platform}`;
  return {
    ...keys,
    pause: `${own}:pause`,
    rateBucket: `${own}:rate`,
    rateSequence: `${own}:rate:seq`,
    rateLimit: `${own}:rate:limit`,
    rateInteractive: `${own}:rate:interactive`,
    contractPin: `${own}:contract:pin`,
    contractSeen: `${own}:contract:seen`,
  };
}

export function deliveryKeys(prefix: string): DeliveryKeys {
  const base = `${prefix}:{q}`;
  return {
    bullPrefix: base,
    pause: `${base}:pause`,
    rateBucket: `${base}:rate`,
    rateSequence: `${base}:rate:seq`,
    rateLimit: `${base}:rate:limit`,
    rateInteractive: `${base}:rate:interactive`,
    versions: `${base}:versions`,
    runIndex: `${base}:runs`,
    pipelineRunIndexesFilled: `${base}:runs-by-pipeline-filled`,
    activeRuns: `${base}:active-runs`,
    dlqEntries: `${base}:dlq:entries`,
    dlqIndex: `${base}:dlq:index`,
    dlqIndexed: `${base}:dlq:indexed`,
    dlqOpen: `${base}:dlq:open`,
    dlqFailures: `${base}:dlq:failures`,
    dlqBy: (dimension, value) => `${base}:dlq:by-${dimension}:${value}`,
    epoch: `${base}:epoch`,
    dataLoss: `${base}:data-loss`,
    pausedSchedules: `${base}:schedules:paused`,
    sourceValidators: `${base}:schedules:validators`,
    remotePickup: (pipeline) => `${base}:schedules:pickup:${pipeline}`,
    metrics: `${base}:metrics`,
    contractPin: `${base}:contract:pin`,
    contractSeen: `${base}:contract:seen`,
    contractText: (sha256) => `${base}:contract:text:${sha256}`,
    audit: `${base}:audit`,
    pipelineRunIndex: (pipeline) => `${base}:runs:${pipeline}`,
    throughput: (minute) => `${base}:throughput:${minute}`,
    run: (id) => `${base}:run:${id}`,
    runErrors: (id) => `${base}:run:${id}:errors`,
    runChanges: (id) => `${base}:run:${id}:changes`,
    runRejected: (id) => `${base}:run:${id}:rejected`,
    runStage: (id, stage) => `${base}:run:${id}:stage:${stage}`,
    runPayloads: (id) => `${base}:run:${id}:payloads`,
    runSettled: (id) => `${base}:run:${id}:settled`,
    runCounted: (id) => `${base}:run:${id}:counted`,
    runReleaseLock: (id) => `${base}:run:${id}:releasing`,
    activeRun: (pipeline) => `${base}:active:${pipeline}`,
    breaker: (pipeline) => `${base}:breaker:${pipeline}`,
  };
}
