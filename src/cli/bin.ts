#!/usr/bin/env node
// The `ferry` binary as installed (package.json "bin"), compiled to dist/src/cli/bin.js by
// `npm run build`. src/cli/ferry.js runs the same main() from the TypeScript sources (tests, dev).
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
