/**
 * Exactly once, with real processes: 10,000 orders are exported by `ferry export` child processes
 * while 2,000 more arrive in the simulator; one run is killed (SIGKILL) while it reads, another
 * the moment its file appears (before or after its cursor moved, wherever the kill lands); the
 * runs after finish. Every order ends up in exactly one file, every line once, the files in their
 * order, each with a true manifest, and nothing half-written is left.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliveryKeys } from '../../src/runs/keys.js';
import { spawnFerry, type FerryProcess } from '../queue/cli-process.js';
import { useDeliveryHarness } from '../queue/delivery-fixtures.js';
import { until } from '../helpers/until.js';
import {
  expectedRows,
  exportHash,
  ordersPipeline,
  readErpCsv,
  visibleFiles,
  writeExportConfigFile,
  writePipeline,
  type SimOrder,
} from './export-fixtures.js';

const h = useDeliveryHarness('export-once', { seed: 21, faults: { latency: [3, 3] } });
let out: string;
let configFile: string;

beforeAll(() => {
  out = join(h.dir, 'out');
  writePipeline(h.dir, 'orders', ordersPipeline(h.dir, 'out', 100));
  configFile = writeExportConfigFile(h.prefix, h.sim.url, h.dir);
  h.sim.addOrders(10_000 - h.sim.state('orders').length);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function temporaries(): { name: string; size: number }[] {
  try {
    return readdirSync(out)
      .filter((n) => n.endsWith('.tmp'))
      .map((name) => ({ name, size: statSync(join(out, name)).size }));
  } catch {
    return [];
  }
}

/** Kills the run with SIGKILL once `ready` holds; resolves to how it ended. */
async function killWhen(p: FerryProcess, ready: () => boolean): Promise<number | string> {
  while (!ready() && p.child.exitCode === null) await sleep(1);
  p.child.kill('SIGKILL');
  return await p.exited;
}

/** A killed run's lock is a lease: it lapses within its expiry, then the next run may start. */
async function lockLapsed(): Promise<void> {
  const lock = deliveryKeys(h.prefix).activeRun('orders');
  await until("the killed run's lock to lapse", async () => (await h.redis.exists(lock)) === 0);
}

describe('exports exactly once', () => {
  it(
    'puts each of 12,000 orders in exactly one file across killed and finished runs',
    // Four `ferry export` children one after the other, and two lease expiries: past 120 s with
    // two busy loops beside the suite (docs/BENCHMARKS.md, "Test suite").
    { timeout: 240_000 },
    async () => {
      expect(h.sim.state('orders')).toHaveLength(10_000);
      // 2,000 orders arrive 500 by 500 while runs 1 to 3 read, and after them (what a run's
      // life leaves of its share arrives after it).
      let arrived = 0;
      const arriveWhile = async (p: FerryProcess): Promise<void> => {
        const share = arrived + 500;
        while (p.child.exitCode === null && p.child.signalCode === null && arrived < share) {
          h.sim.addOrders(10);
          arrived += 10;
          await sleep(15);
        }
      };
      const catchUp = (to: number): void => {
        if (arrived < to) h.sim.addOrders(to - arrived);
        arrived = Math.max(arrived, to);
      };

      // 1: killed while it reads; nothing is published.
      const reading = spawnFerry(['export', 'orders', '--json'], configFile);
      const arriving1 = arriveWhile(reading);
      expect(await killWhen(reading, () => temporaries().some((t) => t.size > 0))).toBe('SIGKILL');
      await arriving1;
      expect(visibleFiles(out)).toEqual([]);
      catchUp(500);
      await lockLapsed();

      // 2: killed the moment its file appears (its cursor moved or not, as the kill lands).
      const publishing = spawnFerry(['export', 'orders', '--json'], configFile);
      const arriving2 = arriveWhile(publishing);
      const ended = await killWhen(publishing, () => visibleFiles(out).length > 0);
      await arriving2;
      catchUp(1_000);
      if (ended === 'SIGKILL') await lockLapsed();
      else expect(ended, publishing.stderr()).toBe(0);

      // 3 and 4: finish what is pending, then the rest once every order arrived.
      const pending = (await exportHash(h.redis, h.prefix, 'orders')).pending;
      const third = spawnFerry(['export', 'orders', '--json'], configFile);
      await arriveWhile(third);
      expect(await third.exited, third.stderr()).toBe(0);
      if (pending !== undefined) {
        // Run 2 died between its file and its cursor: run 3 published that range again, there.
        const { runId, folder, file } = JSON.parse(pending) as Record<string, string>;
        expect(JSON.parse(third.stdout())).toMatchObject({
          recovered: { runId },
          files: [{ path: join(folder!, file!) }],
        });
      }
      catchUp(2_000);
      const fourth = spawnFerry(['export', 'orders', '--json'], configFile);
      expect(await fourth.exited, fourth.stderr()).toBe(0);

      const orders = h.sim.state('orders') as SimOrder[];
      expect(orders).toHaveLength(12_000);
      const csvs = visibleFiles(out).filter((n) => n.endsWith('.csv'));
      const rows: Record<string, string>[] = [];
      const fileOf = new Map<string, string>();
      for (const name of csvs) {
        const path = join(out, name);
        const sha = createHash('sha256').update(readFileSync(path)).digest('hex');
        expect(readFileSync(`${path}.sha256`, 'utf8')).toBe(`${sha}  ${name}\n`);
        for (const row of await readErpCsv(path)) {
          const seenIn = fileOf.get(row.orderId!);
          if (seenIn !== undefined && seenIn !== name) {
            throw new Error(`order ${row.orderId} is in ${seenIn} and ${name}`);
          }
          fileOf.set(row.orderId!, name);
          rows.push(row);
        }
      }
      expect(fileOf.size).toBe(12_000);
      expect(rows).toEqual(expectedRows(orders)); // every line once, in order, across the files
      expect(csvs.length).toBeGreaterThanOrEqual(2);
      expect(temporaries()).toEqual([]);
      const state = await exportHash(h.redis, h.prefix, 'orders');
      expect(state).toEqual({ cursor: orders.at(-1)!.id, seq: String(csvs.length) });
    },
  );
});
