/**
 * The front door of src/pipeline: planning: pipeline definitions, mapping, change detection, the
 * planner. The layers above import what they use of it from here, never one of its modules
 * (.ci/check-imports.mjs); this file re-exports exactly those names.
 */
export { installationUsage, pipelineUsage } from './contract/contract-usage.js';
export { checkInterface, type InterfaceCheck } from './contract/interface-check.js';
export { newPipeline } from './contract/new-pipeline.js';
export { profileSample } from './contract/sample-profile.js';
export { operationContracts, type OperationContracts } from './contract/operation-contracts.js';
export { formatInstant } from './convert/format-date.js';
export type { EntityDefinition, PipelineDefinition } from './definition/definition-types.js';
export type {
  ExportEncoding,
  ExportFieldType,
  ExportTargetFile,
} from './definition/export-schema.js';
export type { ExportDefinition } from './definition/export-types.js';
export type { FilePart } from './definition/file-pattern.js';
export {
  allPipelineTargets,
  listedTargets,
  loadAnyPipeline,
  loadExportPipeline,
  loadPipeline,
  pipelineNames,
  pipelinesDir,
  pipelineTarget,
  pipelineTargets,
} from './definition/load-pipeline.js';
export type { NotifyEvent } from './definition/pipeline-schema.js';
export type { Pickup, Schedule } from './definition/schedule-schema.js';
export { type DeliveryWindow, windowEnd } from './definition/window-schema.js';
export { displayPath } from './display-path.js';
export { type MassDeleteDetails, MassDeleteGuardError } from './errors.js';
export { ValueGuardError } from './guards/guard-error.js';
export {
  guardReason,
  guardSentence,
  parseGuardReport,
  type GuardReport,
  type GuardResult,
} from './guards/guard-report.js';
export { contentHash, fieldHashes } from './hashing.js';
export { boundHeapGrowth } from './heap-tuning.js';
export { ABSENT, type FieldIssue } from './mapping/field-types.js';
export type { AllowDeletes } from './plan-deletes.js';
export { planPipeline, type PlanProgress, type RequestSink } from './plan-pipeline.js';
export {
  guardViews,
  planJson,
  planSummary,
  pricesLine,
  requestItems,
  type GuardView,
  type PlanItemView,
} from './plan-report.js';
export { riddenPrice } from './planner/price-ride.js';
export { schemaFor } from './resource-schemas.js';
export { rowErrorText } from './row-error-text.js';
export { type SourceSpec, sourceSpecOf, sourceFileName } from './source/read-records.js';
export { planUndo, type UndoSkip } from './undo/plan-undo.js';
export type {
  ChangeKind,
  DeliveryItem,
  DeliveryRequest,
  OperationCount,
  PriceCount,
  Plan,
  StateItem,
} from './types.js';
