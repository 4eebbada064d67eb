/** The fault outcome of one interface request, drawn from the seeded PRNG when it arrives. */
import { intBetween, type Random } from './prng.js';
import type { Faults } from './types.js';

export interface FaultDraw {
  /** 500, 502 or 503 when the request is to fail before anything is applied. */
  failStatus: 500 | 502 | 503 | null;
  reset: boolean;
  applyThenFail: boolean;
  latencyMs: number;
}

const FAIL_STATUSES = [500, 502, 503] as const;

/**
 * Always takes the same number of values from `random`, whatever the settings, so that the same
 * seed and the same sequence of requests give the same outcomes.
 */
export function drawFaults(random: Random, faults: Faults, isWrite: boolean): FaultDraw {
  const fail = random();
  const which = random();
  const reset = random();
  const applyThenFail = random();
  const latency = random();
  const [min, max] = faults.latency ?? [0, 0];
  return {
    failStatus: fail < faults.failRate ? FAIL_STATUSES[Math.floor(which * 3)]! : null,
    reset: reset < faults.resetRate,
    applyThenFail: isWrite && applyThenFail < faults.applyThenFailRate,
    latencyMs: intBetween(() => latency, min, max),
  };
}
