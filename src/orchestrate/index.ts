/**
 * The front door of src/orchestrate: runs from plan to delivery: start, execute, replay, resume.
 * The layers above import what they use of it from here, never one of its modules
 * (.ci/check-imports.mjs); this file re-exports exactly those names.
 */
export { checkPlanContract } from './check-contract.js';
export { executeRun } from './execute-run.js';
export {
  compareWithPin,
  type ContractComparison,
  pinContract,
  type PinOutcome,
} from './pin-contract.js';
export { replayDeadLetters, type ReplayReport } from './replay.js';
export { resumeRun } from './resume-run.js';
export { laneOf, startRun } from './start-run.js';
export {
  restoredPricesText,
  skippedGroups,
  skippedGroupText,
  UndoError,
  undoRun,
  type UndoResult,
} from './undo-run.js';
