/**
 * The front door of src/simulator: the platform's stand-in. The layers above import what they use
 * of it from here, never one of its modules (.ci/check-imports.mjs); this file re-exports exactly
 * those names.
 */
export { startSimulator } from './start-simulator.js';
export { startSimulatorProcesses, type SimulatorProcesses } from './start-processes.js';
export { OWNER_SOCKETS_ENV, serveAsProcess } from './serving-process.js';
export type { DescribedSummary, Faults, RunningSimulator, SimulatorOptions } from './types.js';
