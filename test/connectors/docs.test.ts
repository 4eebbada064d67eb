import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOC_PATH, formattedConnectorDocs } from '../../connectors/docs/render-docs.js';
import { CONNECTORS } from '../../connectors/registry.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';

describe('docs/CONNECTORS.md', () => {
  const path = resolve(PROJECT_ROOT, DOC_PATH);

  it('is what `npm run docs:connectors` generates from the declarations', async () => {
    expect(readFileSync(path, 'utf8')).toBe(await formattedConnectorDocs(path));
  });

  it('documents every option of every connector', () => {
    const doc = readFileSync(path, 'utf8');
    for (const connector of CONNECTORS) {
      expect(doc).toContain(`## ${connector.name}`);
      for (const option of Object.keys(connector.options.shape))
        expect(doc).toContain(`\`${option}\``);
    }
  });
});
