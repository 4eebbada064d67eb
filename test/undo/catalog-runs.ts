/** What the undo tests share: the item master's rows, a catalog run to its end, a dry undo. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import { undoRun, type UndoResult } from '../../src/orchestrate/undo-run.js';
import type { Plan } from '../../src/pipeline/types.js';
import { followRun } from '../../src/runs/follow-run.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { quietLogger, startCatalog, type DeliveryHarness } from '../queue/delivery-fixtures.js';

const HEADER =
  'No.;Description;Description 2;Vendor Name;Item Category Code;Item Category Name;' +
  'Parent Category Code;Category Sort;Unit Price;Currency;Blocked;GTIN;Web Handle;Last Date Modified';

/** An item master row: item `no` with `description` (Description 2) at `price` (`10,50`). */
export const itemRow = (no: string, price: string, description = 'Nice') =>
  `${no};Item ${no};${description};Acme;GEN;Gensere;;10;${price};NOK;No;;;01.01.2026`;

/** Runs the catalog on `rows` (written to `name`) to its end, which must be a success. */
export async function runCatalog(
  h: DeliveryHarness,
  config: FerryConfig,
  name: string,
  rows: readonly string[],
): Promise<{ runId: string; plan: Plan }> {
  const file = join(h.dir, name);
  writeFileSync(file, [HEADER, ...rows, ''].join('\r\n'), 'latin1');
  const started = await startCatalog(h.redis, config, file);
  if (started.enqueued) {
    const done = await followRun(h.redis, deliveryKeys(h.prefix), started.runId, () => undefined);
    expect(done.status).toBe('succeeded');
  }
  return { runId: started.runId, plan: started.plan };
}

/** The dry run of undoing `runId`, checked to send nothing to the simulator. */
export async function dryUndo(
  h: DeliveryHarness,
  config: FerryConfig,
  runId: string,
): Promise<UndoResult> {
  const requests = h.sim.stats().requests;
  const dry = await undoRun({ config, redis: h.redis, logger: quietLogger(), runId, dryRun: true });
  expect(h.sim.stats().requests).toBe(requests);
  return dry;
}
