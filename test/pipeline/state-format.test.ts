import { describe, expect, it } from 'vitest';
import {
  decodeState,
  encodeItem,
  encodeState,
  holdsItem,
  stateDeleted,
  stateFieldHashes,
  stateInputIs,
} from '../../src/state/state-format.js';
import type { DeliveryItem } from '../../src/pipeline/types.js';

const item: DeliveryItem = {
  resource: 'products',
  key: '007',
  kind: 'upsert',
  payload: { externalId: '007' },
  hash: 'h4sh',
  fieldHashes: { name: 'n1', 'odd|field': 'x' },
  input: 'inp-ut_16charsxx',
  version: 5,
  baseVersion: 0,
};

describe('state values', () => {
  it('round-trips version, hash, input fingerprint and field hashes', () => {
    const value = encodeItem(item);
    expect(decodeState(value)).toEqual({
      version: 5,
      hash: 'h4sh',
      input: item.input,
      fieldHashes: item.fieldHashes,
    });
    expect(encodeState(decodeState(value))).toBe(value);
    expect(stateInputIs(value, 'inp-ut_16charsxx')).toBe(true);
    expect(stateInputIs(value, 'inp-ut_16charsxy')).toBe(false);
    expect(stateFieldHashes(value)).toEqual(item.fieldHashes);
    expect(holdsItem(value, item)).toBe(true);
    expect(holdsItem(value, { ...item, input: 'other' })).toBe(false);
  });

  it('reads the older format without a fingerprint part', () => {
    const older = `5|h4sh|${JSON.stringify(item.fieldHashes)}`;
    expect(decodeState(older)).toEqual({ version: 5, hash: 'h4sh', fieldHashes: item.fieldHashes });
    expect(stateFieldHashes(older)).toEqual(item.fieldHashes);
    expect(stateInputIs(older, '')).toBe(false);
    expect(decodeState('7|h4sh|')).toEqual({ version: 7, hash: 'h4sh' });
    // Committed by an item without a fingerprint, before the format changed.
    expect(holdsItem(older, { ...item, input: undefined } as DeliveryItem)).toBe(true);
  });

  it('marks tombstones, which match no fingerprint', () => {
    const tombstone = encodeItem({ ...item, kind: 'delete' });
    expect(tombstone).toBe('5||');
    expect(stateDeleted(tombstone)).toBe(true);
    expect(decodeState(tombstone)).toEqual({ version: 5, hash: '', deleted: true });
    expect(stateInputIs(tombstone, '')).toBe(false);
  });
});
