/**
 * The front door of src/export: exports to the ERP. The layers above import what they use of it
 * from here, never one of its modules (.ci/check-imports.mjs); this file re-exports exactly those
 * names.
 */
export { exportText } from './export-text.js';
export { runExport } from './run-export.js';
