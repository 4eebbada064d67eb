/** Writes docs/CONNECTORS.md from the declarations: `npm run docs:connectors`. */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../src/config/index.js';
import { DOC_PATH, formattedConnectorDocs } from './docs/render-docs.js';

const path = resolve(PROJECT_ROOT, DOC_PATH);
await writeFile(path, await formattedConnectorDocs(path));
console.log(`wrote ${path}`);
