import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describedCommands } from '../../src/cli/commands/index.js';
import { renderCliDocs } from '../../src/cli/render-cli-docs.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';

describe('docs/CLI.md', () => {
  it('is what the command declarations generate (run `npm run docs:cli` after changing a command)', async () => {
    const committed = readFileSync(resolve(PROJECT_ROOT, 'docs/CLI.md'), 'utf8');
    expect(committed).toBe(renderCliDocs(await describedCommands()));
  });
});
