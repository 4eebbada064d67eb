#!/usr/bin/env node
// The `ferry` binary as installed (package.json "bin"), compiled to dist/src/cli/bin.js by
// `npm run build`. src/cli/ferry.js runs the same main() from the TypeScript sources (tests, dev).
import { endWhenReaderGoes, exitAfterOutput } from './exit-after-output.js';
import { main } from './main.js';

endWhenReaderGoes();
// Once main returns (long-running commands return only when stopped), and its output is out.
await exitAfterOutput(await main(process.argv.slice(2)));
