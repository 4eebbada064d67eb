#!/usr/bin/env node
// The `ferry` binary. Runs the TypeScript sources through tsx, so a checkout works after `npm ci`
// with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
const { endWhenReaderGoes, exitAfterOutput } = await import('./exit-after-output.ts');
endWhenReaderGoes();
// Once main returns (long-running commands return only when stopped), and its output is out.
await exitAfterOutput(await main(process.argv.slice(2)));
