/** A run as one line of a list: `ferry runs --json` and the console's `GET /api/runs` alike. */
import { splitPipelineName } from '../config/index.js';
import { forecastRun, type RunForecast } from './forecast.js';
import { itemCounts, type ItemCounts } from './run-report.js';
import type { RunRecord } from './run-record.js';
import { requestsInFlight, runStatusText } from './run-status-text.js';

export interface RunLine {
  runId: string;
  /** The name it runs under: `catalog`, or `catalog@north` on another platform than default. */
  pipeline: string;
  /** The platform it delivers to (`default`: the top-level interface). */
  platform: string;
  kind: string;
  trigger: string;
  /** Who started it, when a console token did. */
  startedBy?: string;
  status: string;
  /** The status in words: "cancelling: 3 requests in flight". */
  statusText: string;
  /** Why a blocked run waits. */
  blockedReason?: string;
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
  /** settled = delivered + failed + stale + cancelled <= planned; unchanged apart. */
  items: ItemCounts;
  rejected: number;
  /** An undo's: the run it undoes. */
  undoOf?: string;
  /** A replay's: the runs whose dead letters it sends again. */
  replayOf?: string[];
  /** A running run: requests left, the recent rate, when it ends (forecast.ts). */
  forecast?: RunForecast;
}

export function lineOf(run: RunRecord, now: number): RunLine {
  const items = itemCounts(run);
  const line: RunLine = {
    runId: run.id,
    pipeline: run.pipeline,
    platform: splitPipelineName(run.pipeline).platform,
    kind: run.kind,
    trigger: run.trigger,
    status: run.status,
    statusText: runStatusText(
      run.status,
      run.status === 'cancelling' ? requestsInFlight(run) : undefined,
    ),
    startedAt: new Date(run.createdAt).toISOString(),
    plannedItems: items.planned,
    deliveredItems: items.delivered,
    failedItems: items.failed,
    items,
    rejected: run.rejected,
  };
  if (run.reason) line.reason = run.reason;
  if (run.status === 'blocked' && run.blockedReason) line.blockedReason = run.blockedReason;
  if (run.startedBy) line.startedBy = run.startedBy;
  if (run.lateSeconds) line.lateSeconds = run.lateSeconds;
  if (run.undoOf) line.undoOf = run.undoOf;
  if (run.replayOf) line.replayOf = run.replayOf;
  const forecast = forecastRun(run, now);
  if (forecast) line.forecast = forecast;
  if (run.finishedAt) {
    line.finishedAt = new Date(run.finishedAt).toISOString();
    line.seconds = (run.finishedAt - run.createdAt) / 1000;
  }
  return line;
}
