/**
 * The front door of src/serve: the console. The layers above import what they use of it from here,
 * never one of its modules (.ci/check-imports.mjs); this file re-exports exactly those names.
 */
export { buildServer } from './server.js';
