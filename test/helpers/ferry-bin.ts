/**
 * The compiled `ferry` binary (test/helpers/build-ferry.ts, built by the global setup) for tests
 * that run it as a child process: `node FERRY_BIN ARGS`. Tests of the tsx launcher itself run
 * src/cli/ferry.js.
 */
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    ferryBin: string;
  }
}

export const FERRY_BIN = inject('ferryBin');
