/** A run's status as an operator reads it: "cancelling: 12 requests in flight", "guard stopped". */
import type { RunRecord, RunStatus } from './run-record.js';

/**
 * Requests of a cancelling run still on the wire: after a cancel only the jobs a worker holds are
 * unsettled, each with one request out at a time, and each stops at its next checkpoint
 * (delivery.progressEveryMs, process-job.ts).
 */
export function requestsInFlight(run: Pick<RunRecord, 'pending'>): number {
  return run.pending.reduce((n, p) => n + p, 0);
}

export function runStatusText(status: RunStatus, inFlight?: number): string {
  if (status === 'cancelling' && inFlight !== undefined) {
    return `cancelling: ${inFlight} request${inFlight === 1 ? '' : 's'} in flight`;
  }
  return status.replace('_', ' ');
}
