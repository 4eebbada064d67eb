/**
 * The front door of src/runs: the run registry: run records, index, reports, dead letters, epoch,
 * webhooks, metrics, trace. The layers above import what they use of it from here, never one of
 * its modules (.ci/check-imports.mjs); this file re-exports exactly those names.
 */
export {
  createDeadLetterStore,
  type DeadLetterFilter,
  type DeadLetterStore,
} from './dead-letters/dead-letter-store.js';
export {
  deadLetterRow,
  type DeadLetterRow,
  deadLettersCsv,
  deadLetterTable,
  deadLetterText,
} from './dead-letters/dead-letter-views.js';
export { ContractBreakingError } from './contract/contract-error.js';
export { contractedConfig, pipelineConfig } from './contract/contracted-config.js';
export {
  type KeptDescription,
  keepRunDescription,
  readRunDescription,
} from './contract/run-description.js';
export {
  type ContractPin,
  type ContractSighting,
  firstNotice,
  pendingContract,
  type PendingContract,
  readPin,
  readSighting,
  type StoredChange,
  type Validators,
  writePin,
  writeSighting,
} from './contract/pin-store.js';
export { type RefusedRun, refuseRun } from './contract/record-refusal.js';
export type { DeadLetter, DeadLetterRequest } from './dead-letters/dead-letter.js';
export { guardDataLoss, pendingDataLoss } from './epoch/data-loss-guard.js';
export { type EpochWatcher, watchEpoch } from './epoch/epoch-watcher.js';
export { type DataLoss, markResent, readDataLoss } from './epoch/installation-epoch.js';
export {
  DeliveryDeferredError,
  RateWaitError,
  NotFoundError,
  RedisDataLostError,
  RunActiveError,
  RunFinishedError,
  RunInterruptedError,
  RunNotBlockedError,
  WorkerStoppedError,
  DeadLettersChangedError,
} from './errors.js';
export { finishRun, RETENTION_S } from './finish-run.js';
export { forecastRun, forecastText, type RunForecast } from './forecast.js';
export { followRun } from './follow-run.js';
export {
  addTally,
  addToTally,
  type DeliveryJobData,
  type JobPayload,
  type JobRequest,
  queueJobId,
  runJobId,
  type StagedJob,
  stateItem,
  type Tally,
} from './job-data.js';
export { decodeJobPayload } from './job-payload-codec.js';
export {
  deliveryKeys,
  type DeliveryKeys,
  type Lane,
  LANES,
  platformKeys,
  queueName,
  SCHEDULE_QUEUE,
} from './keys.js';
export {
  countRunEnd,
  countRunEndLua,
  DURATION_BUCKETS,
  itemsField,
  lastSuccessField,
  RATE_LIMITED_FIELD,
  runsField,
  SEP,
} from './metrics/metric-fields.js';
export { startRequestMetrics } from './metrics/request-metrics.js';
export { type RunRequestCounter, startRunRequestCounter } from './metrics/run-requests.js';
export { readThroughput, type ThroughputPoint } from './metrics/throughput.js';
export {
  notifyContractChanged,
  notifyIfLate,
  type NotifyContext,
  notifyRunBlocked,
  notifyRunEnded,
} from './notify/notify-run.js';
export { startNotifyWorker } from './notify/notify-worker.js';
export { progressDisplay } from './progress.js';
export { type AllowGuard, claimAllowance, loadStoppedRun } from './guards/allow-guard.js';
export { FourEyesError, GuardAllowError } from './guards/guard-errors.js';
export { lastSyncRows } from './last-rows.js';
export { guardStopped, type GuardStoppedRun, valueGuardStopped } from './record-guard-stop.js';
export {
  type InterruptedStart,
  recordRedisLost,
  redisLostReason,
  startInterrupted,
  type StartPhase,
} from './record-redis-lost.js';
export { recordUnstartedRun } from './record-unstarted-run.js';
export { reportText } from './report-text.js';
export { newRunId, nextVersion } from './run-id.js';
export { indexedRunIds, indexRun, readRunRecords, recentRuns } from './run-index.js';
export { lastRunOf, type LastRun } from './last-run.js';
export { lineOf, type RunLine } from './run-line.js';
export { lockPipeline, type RunLock } from './run-lock.js';
export {
  type ExportSummary,
  isFinished,
  isFinishedStatus,
  itemTotals,
  parseRun,
  type RunContract,
  type RunKind,
  type RunRecord,
  type RunStatus,
  settledItems,
  type StageInfo,
  standsForPipeline,
  RUN_KINDS,
  type Trigger,
} from './run-record.js';
export { addRejectedRows } from './run-rejected.js';
export { buildRunReport, ERRORS_KEPT, failuresCsv, loadRun, type RunReport } from './run-report.js';
export { requestsInFlight, runStatusText } from './run-status-text.js';
export { readRunTimeline, type TimelinePoint } from './run-timeline.js';
export { type SettleResult } from './scripts/settle-job.js';
export { countProgress, settleJob } from './settle-job.js';
export { StageWriter } from './stage-writer.js';
export { rejectedSinceDelivery, traceText, traceVerdict } from './trace/entity-trace-text.js';
export {
  type EntityTrace,
  MAX_TRACED_RUNS,
  TRACED_RUNS,
  tracedPipeline,
  traceEntity,
  traceLink,
} from './trace/entity-trace.js';
export { type AuditEntry, cliActor, lastAuditOf, readAudit, recordAudit } from './audit.js';
export { keepInput, keptInputSource } from './kept-input.js';
