/** A run as one line of a list: `ferry runs --json` and the console's `GET /api/runs` alike. */
import { itemTotals, type RunRecord } from './run-record.js';

export interface RunLine {
  runId: string;
  pipeline: string;
  kind: string;
  trigger: string;
  /** Who started it, when a console token did. */
  startedBy?: string;
  status: string;
  /** Why a skipped run started nothing. */
  reason?: string;
  /** A scheduled run that started well after its tick: by how much. */
  lateSeconds?: number;
  startedAt: string;
  finishedAt?: string;
  seconds?: number;
  plannedItems: number;
  deliveredItems: number;
  failedItems: number;
  rejected: number;
}

export function lineOf(run: RunRecord): RunLine {
  const totals = itemTotals(run.operations);
  const line: RunLine = {
    runId: run.id,
    pipeline: run.pipeline,
    kind: run.kind,
    trigger: run.trigger,
    status: run.status,
    startedAt: new Date(run.createdAt).toISOString(),
    plannedItems: totals.planned,
    deliveredItems: totals.delivered,
    failedItems: totals.failed,
    rejected: run.rejected,
  };
  if (run.reason) line.reason = run.reason;
  if (run.startedBy) line.startedBy = run.startedBy;
  if (run.lateSeconds) line.lateSeconds = run.lateSeconds;
  if (run.finishedAt) {
    line.finishedAt = new Date(run.finishedAt).toISOString();
    line.seconds = (run.finishedAt - run.createdAt) / 1000;
  }
  return line;
}
