/** The figures --help states without loading their layers are the layers' own. */
import { describe, expect, it } from 'vitest';
import { connectorNames } from '../../connectors/index.js';
import {
  CANCEL_TIMEOUT_S,
  CONNECTOR_NAMES,
  MAX_TRACED_RUNS,
  TRACED_RUNS,
} from '../../src/cli/help-figures.js';
import { CANCEL_TIMEOUT_MS } from '../../src/queue/index.js';
import * as runs from '../../src/runs/index.js';

describe('help figures', () => {
  it('match the layers that own them', () => {
    expect(CANCEL_TIMEOUT_S * 1000).toBe(CANCEL_TIMEOUT_MS);
    expect(TRACED_RUNS).toBe(runs.TRACED_RUNS);
    expect(MAX_TRACED_RUNS).toBe(runs.MAX_TRACED_RUNS);
    expect(CONNECTOR_NAMES).toBe(connectorNames().join(', '));
  });
});
