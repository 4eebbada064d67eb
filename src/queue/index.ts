/**
 * The front door of src/queue: delivery: lanes, jobs, workers, retries, the rate gate,
 * dead-lettering, cancelling. The layers above import what they use of it from here, never one of
 * its modules (.ci/check-imports.mjs); this file re-exports exactly those names.
 */
export { JobBundler } from './bundle-jobs.js';
export { CANCEL_TIMEOUT_MS, type CancelOutcome, cancelRun } from './cancel-run.js';
export { connectDelivery } from './connect.js';
export { EditedPayloads, readEditedPayloads } from './dlq/edited-payloads.js';
export { replayRequest, type ReplayRequest } from './dlq/replay-request.js';
export {
  checkSelection,
  type DeadLetterSelection,
  selectDeadLetters,
} from './dlq/select-dead-letters.js';
export { openQueues } from './queues.js';
export { type PlatformView, readPlatforms } from './platforms-status.js';
export { releaseStage } from './release-stage.js';
export { readStatus } from './status.js';
export { resumeDelivery } from './worker/breaker.js';
export { classifyItems } from './worker/classify-items.js';
export { type DeliveryWorker, startDeliveryWorker } from './worker/delivery-worker.js';
export { readRateLimit } from './worker/rate-limit-state.js';
