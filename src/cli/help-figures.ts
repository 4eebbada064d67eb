/**
 * Figures the commands' --help states, copied from the layers that own them, so that --help
 * loads none of those layers (docs/ARCHITECTURE.md, Lazy loading); test/cli/help-figures.test.ts
 * fails when a copy no longer matches its original.
 */

/** queue's CANCEL_TIMEOUT_MS, in seconds. */
export const CANCEL_TIMEOUT_S = 120;
/** runs' TRACED_RUNS and MAX_TRACED_RUNS. */
export const TRACED_RUNS = 20;
export const MAX_TRACED_RUNS = 200;
/** connectors' connectorNames(). */
export const CONNECTOR_NAMES = 'csv, json, xml, xlsx';
