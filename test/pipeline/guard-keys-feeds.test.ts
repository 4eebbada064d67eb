import { describe, expect, it } from 'vitest';
import { MassDeleteGuardError } from '../../src/pipeline/errors.js';
import type { Plan } from '../../src/pipeline/types.js';
import { catalog, ROWS, useSnapshotHarness, type Row } from './snapshot-harness.js';

const h = useSnapshotHarness('guard');

describe('the mass-delete guard', () => {
  it('stops a truncated export with the mass-delete guard, and lets one run allow it', async () => {
    const def = catalog({ deletes: true });
    const rows: Row[] = Array.from({ length: 20 }, (_, i) => [String(i + 1), `P${i + 1}`, '1']);
    await h.commitAll(await h.plan(def, h.csv(rows), 100));
    const truncated = h.csv(rows.slice(0, 15));
    const error = await h.plan(def, truncated, 200).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MassDeleteGuardError);
    const guard = error as MassDeleteGuardError;
    expect(guard.code).toBe('FERRY_MASS_DELETE_GUARD');
    expect(guard.exitCode).toBe(1);
    expect(guard.message).toContain('delete 5 of the 20 entities in state');
    expect(guard.message).toContain('--allow-deletes 5');
    await expect(h.plan(def, truncated, 200, 4)).rejects.toBeInstanceOf(MassDeleteGuardError);
    expect((await h.plan(def, truncated, 200, 5)).deletes).toBe(5);
    expect((await h.plan(def, truncated, 200, true)).deletes).toBe(5);
    // Within 10%: two of twenty.
    expect((await h.plan(def, h.csv(rows.slice(0, 18)), 200)).deletes).toBe(2);
    // An export of no records would delete everything: it is refused before the guard.
    await expect(h.plan(def, h.csv([]), 200)).rejects.toMatchObject({ code: 'FERRY_NO_RECORDS' });
  });

  it('stops a plan with deletes when the export has fewer rows than minRows', async () => {
    const def = catalog({ deletes: true, maxShare: 1, minRows: 3 });
    await h.commitAll(await h.plan(def, h.csv(ROWS), 100));
    await expect(h.plan(def, h.csv([ROWS[0]!, ROWS[1]!]), 200)).rejects.toThrow(
      /fewer than the minimum of 3/,
    );
  });
});

describe('idempotency keys', () => {
  it('are the same for the same change planned twice before commit, and new for A -> B -> A', async () => {
    const def = catalog();
    const a = h.csv([['1', 'A', '1']]);
    const b = h.csv([['1', 'B', '1']]);
    const keys = (p: Plan) => p.stages.flatMap((s) => s.requests.map((r) => r.idempotencyKey));
    const first = await h.plan(def, a, 100);
    const twice = await h.plan(def, a, 150);
    expect(keys(twice)).toEqual(keys(first));
    expect(new Set(keys(first)).size).toBe(keys(first).length);
    await h.commitAll(first);
    const toB = await h.plan(def, b, 200);
    await h.commitAll(toB);
    const backToA = await h.plan(def, a, 300);
    const putA1 = first.stages[0]?.requests[0];
    const putA2 = backToA.stages[0]?.requests[0];
    expect(putA2?.body).toEqual(putA1?.body);
    expect(putA2?.idempotencyKey).not.toBe(putA1?.idempotencyKey);
    expect(putA2?.idempotencyKey).toMatch(/^[0-9a-f]{64}$/);
  });
});
