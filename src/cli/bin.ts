#!/usr/bin/env node
// The `ferry` binary as installed (package.json "bin"), compiled to dist/src/cli/bin.js by
// `npm run build`. src/cli/ferry.js runs the same main() from the TypeScript sources (tests, dev).
import { main } from './main.js';

// Exit with main's code once it returns (long-running commands return only when stopped): a
// library handle left open (ssh2's on Node 24) must not keep a finished command alive.
process.exit(await main(process.argv.slice(2)));
