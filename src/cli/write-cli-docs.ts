// `npm run docs:cli`: rewrites docs/CLI.md from the command declarations.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../config/index.js';
import { describedCommands } from './commands/index.js';
import { renderCliDocs } from './render-cli-docs.js';

const target = resolve(PROJECT_ROOT, 'docs/CLI.md');
writeFileSync(target, renderCliDocs(await describedCommands()));
console.log(`wrote ${target}`);
