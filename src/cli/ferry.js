#!/usr/bin/env node
// The `ferry` binary. Runs the TypeScript sources through tsx, so a checkout works after `npm ci`
// with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
// Exit with main's code once it returns (long-running commands return only when stopped): a
// library handle left open (ssh2's on Node 24) must not keep a finished command alive.
process.exit(await main(process.argv.slice(2)));
