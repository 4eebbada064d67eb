/**
 * The breaker for platform-wide refusals (docs/DELIVERY.md, The platform refusing everyone). A
 * wrong credential, a lost scope or a route the platform took away answers every request alike;
 * sent on, a 20,000-row catalog would become 20,000 dead letters. So an answer that refuses the caller
 * rather than the item (401 after a credential renewal, 403, 404 for a collection route, 405) is
 * never dead-lettered: the request waits for the job's next attempt, and the pipeline's breaker
 * (`<prefix>:{q}:breaker:<pipeline>`) counts it. `delivery.breaker.threshold` such answers in a
 * row block the pipeline's delivery: its run turns `blocked` with a reason, its jobs wait (moved
 * to delayed, no attempt spent), `ferry_delivery_blocked{pipeline,platform,reason}` is 1 and the
 * pipeline's `notify` gets `blocked`. Every `delivery.breaker.probeSeconds` the supervisor grants one probe:
 * the next job of the run sends one request; if it passes the pipeline resumes by itself, as it
 * does on `ferry resume RUN` or the console's button. Any other answer ends the streak.
 *
 * A process resets the streak only after it saw a refusal itself, so a healthy delivery costs no
 * Redis round trip here.
 */
import { DEFAULT_PLATFORM, platformVariable, splitPipelineName } from '../../config/index.js';
import { type InterfaceError, AuthError, PermanentHttpError } from '../../interface/index.js';
import { type RedisClient, runScript } from '../../redis/index.js';
import type { DeliveryKeys } from '../../runs/index.js';
import { BREAKER_GRANT_PROBE } from '../scripts/breaker-grant-probe.js';
import { BREAKER_REFUSED } from '../scripts/breaker-refused.js';
import { BREAKER_RESUME } from '../scripts/breaker-resume.js';

export type RefusalReason = 'unauthorized' | 'forbidden' | 'route_not_found' | 'method_not_allowed';

const REASON_TEXT: Record<RefusalReason, string> = {
  unauthorized: 'the platform refuses the credential (401 after renewing it)',
  forbidden: 'the platform forbids the requests (403)',
  route_not_found: 'the platform does not know the route (404)',
  method_not_allowed: 'the platform does not allow the method on the route (405)',
};

export function reasonText(
  reason: string,
  operationId: string,
  threshold: number,
  runId: string,
): string {
  const why = REASON_TEXT[reason as RefusalReason] ?? reason;
  return (
    `Delivery blocked: ${why} on ${threshold} requests in a row (last: ${operationId}). ` +
    'Nothing was dead-lettered; fix the credential or the interface settings, then it resumes ' +
    `by itself at the next probe, or at once with \`ferry resume ${runId}\`.`
  );
}

/**
 * Why a run whose worker is configured for another platform waits (docs/DELIVERY.md, State
 * belongs to its platform): its state must hold only what the run's platform confirmed.
 */
export function otherPlatformText(
  workerPlatform: string,
  runPlatform: string,
  runId: string,
  pipeline: string,
): string {
  // The variable that sets the address of the run's platform (config/platform-env.ts).
  const platform = splitPipelineName(pipeline).platform;
  const variable =
    platform === DEFAULT_PLATFORM ? 'FERRY_BASE_URL' : platformVariable(platform, 'BASE_URL');
  return (
    `Delivery blocked: a worker configured for ${workerPlatform} took a job of this run, which ` +
    `was planned for ${runPlatform}; it sent nothing. Start the workers with ` +
    `${variable}=${runPlatform} (and stop those for ${workerPlatform}), then ` +
    `\`ferry resume ${runId}\`.`
  );
}

/**
 * Whether an error refuses the caller rather than the item. A 404 counts only for a route
 * without path parameters (a collection): for `/products/{id}` it says the product is missing.
 */
export function platformRefusal(
  error: InterfaceError,
  path: string,
  method: string,
): RefusalReason | undefined {
  if (error instanceof AuthError) return 'unauthorized';
  if (!(error instanceof PermanentHttpError)) return undefined;
  if (error.status === 403) return 'forbidden';
  if (error.status === 405) return 'method_not_allowed';
  if (error.status === 404 && method !== 'DELETE' && !path.includes('{')) return 'route_not_found';
  return undefined;
}

export type RefusalVerdict = 'counting' | 'blocked-now' | 'blocked';

export interface BreakerSettings {
  threshold: number;
  probeSeconds: number;
}

export interface Breaker {
  /** A platform-wide refusal of one of the run's requests. */
  refused(
    pipeline: string,
    runId: string,
    reason: RefusalReason,
    operationId: string,
    /** A lower threshold: a job on its last attempt blocks at `attempts` refusals in a row. */
    threshold?: number,
  ): Promise<RefusalVerdict>;
  /**
   * This worker is configured for another platform than the run's: the pipeline is blocked at
   * once, with the reason (otherPlatformText). Until a worker of the run's platform answers a
   * probe, or `ferry resume`.
   */
  otherPlatform(
    pipeline: string,
    runId: string,
    workerPlatform: string,
    runPlatform: string,
  ): Promise<RefusalVerdict>;
  /** Any other answer: the streak is over (a probe's answer resumes the pipeline). */
  passed(pipeline: string, runId: string, probe: boolean): Promise<boolean>;
  /** Whether this process saw a refusal of the pipeline and no answer since. */
  suspect(pipeline: string): boolean;
  /** Whether the pipeline's delivery is blocked now (one round trip). */
  isBlocked(pipeline: string): Promise<boolean>;
}

export function createBreaker(
  redis: RedisClient,
  keys: DeliveryKeys,
  settings: BreakerSettings,
): Breaker {
  const suspects = new Set<string>();
  const count = async (
    pipeline: string,
    runId: string,
    threshold: number,
    reason: string,
    reasonText: string,
  ): Promise<RefusalVerdict> =>
    await runScript(
      redis,
      BREAKER_REFUSED,
      { breaker: keys.breaker(pipeline), run: keys.run(runId), metrics: keys.metrics },
      { threshold, reason, now: Date.now(), runId, pipeline, reasonText },
    );
  return {
    async refused(pipeline, runId, reason, operationId, threshold = settings.threshold) {
      suspects.add(pipeline);
      const text = reasonText(reason, operationId, settings.threshold, runId);
      return await count(pipeline, runId, Math.min(threshold, settings.threshold), reason, text);
    },
    async otherPlatform(pipeline, runId, workerPlatform, runPlatform) {
      const text = otherPlatformText(workerPlatform, runPlatform, runId, pipeline);
      return await count(pipeline, runId, 1, 'other_platform', text);
    },
    async passed(pipeline, runId, probe) {
      if (!probe && !suspects.has(pipeline)) return false;
      suspects.delete(pipeline);
      return await resumeDelivery(redis, keys, pipeline, runId, 'reset');
    },
    suspect: (pipeline) => suspects.has(pipeline),
    async isBlocked(pipeline) {
      return (await redis.hget(keys.breaker(pipeline), 'blocked')) === '1';
    },
  };
}

/**
 * Resumes a blocked pipeline: a probe passed ('reset': the streak is over), or an operator asked
 * (`ferry resume`, the console: 'keep', so that if the platform still refuses, the next refusal
 * blocks it again). 1 when it was blocked.
 */
export async function resumeDelivery(
  redis: RedisClient,
  keys: DeliveryKeys,
  pipeline: string,
  runId: string,
  streak: 'reset' | 'keep',
): Promise<boolean> {
  return await runScript(
    redis,
    BREAKER_RESUME,
    { breaker: keys.breaker(pipeline), run: keys.run(runId), metrics: keys.metrics },
    { pipeline, streak, now: Date.now() },
  );
}

/** The supervisor's part: one probe per blocked pipeline every `probeSeconds`. */
export async function grantProbe(
  redis: RedisClient,
  keys: DeliveryKeys,
  pipeline: string,
  probeSeconds: number,
): Promise<boolean> {
  return await runScript(
    redis,
    BREAKER_GRANT_PROBE,
    { breaker: keys.breaker(pipeline) },
    { now: Date.now(), probeMs: Math.round(probeSeconds * 1000) },
  );
}
