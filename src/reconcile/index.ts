/**
 * The front door of src/reconcile: reconciliation with the platform. The layers above import what
 * they use of it from here, never one of its modules (.ci/check-imports.mjs); this file re-exports
 * exactly those names.
 */
export { type LastReconciliation, readLastReconciliations } from './last-reconciliation.js';
export { type RebuildResult, rebuildState } from './rebuild-state.js';
export { hasDrift, type ReconcileDocument, reconcilePipeline } from './reconcile-pipeline.js';
