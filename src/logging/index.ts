/**
 * The front door of src/logging: the logger. The layers above import what they use of it from
 * here, never one of its modules (.ci/check-imports.mjs); this file re-exports exactly those
 * names.
 */
export type { Logger } from './logger.js';
export { inSpan, tracer } from './span.js';
