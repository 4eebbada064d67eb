/**
 * A tick of a pipeline with `schedule.pickup` whose source is an SFTP server or an S3 bucket: as
 * for a folder (tick-pickup.ts), tonight's export is taken once it has been quiet for
 * `quietSeconds`, run, and moved to the archive or error folder on the server. On one connection
 * for the tick, each file taken is streamed into a temporary file (never held in memory), checked
 * unchanged since it was listed (else it is still being written, and waits), and planned.
 *
 * A network can fail between a run and its move: Redis keeps the files a run took until they are
 * moved (`taken:<name>`), so the next tick finishes the move instead of reading them again; and
 * the newest export read (`newest`), so an older one that turns up later goes to the error folder
 * instead of undoing a newer one.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline as pipe } from 'node:stream/promises';
import { openDrop, type RemoteDrop, type RemoteEntry } from '../../connectors/index.js';
import { isFerryError } from '../errors/index.js';
import type { Pickup, SourceSpec } from '../pipeline/index.js';
import { RunActiveError, followRun, isFinished, parseRun, type RunRecord } from '../runs/index.js';
import { chooseExports } from './pickup.js';
import { recordSkip, skipReason, startOrSkip, type TickContext } from './tick-run.js';

type RemoteSpec = Extract<SourceSpec, { sftp: unknown } | { s3: unknown }>;

/** What the ledger keeps of a file a run took. */
interface Taken {
  size: number;
  mtimeMs: number;
  etag?: string;
  runId: string;
}

function sameFile(a: RemoteEntry, b: { size: number; mtimeMs: number; etag?: string }): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.etag === b.etag;
}

class Ledger {
  private readonly key: string;
  constructor(private readonly ctx: TickContext) {
    this.key = ctx.keys.remotePickup(ctx.pipeline);
  }
  async taken(): Promise<Map<string, Taken>> {
    const all = await this.ctx.redis.hgetall(this.key);
    const taken = new Map<string, Taken>();
    for (const [field, value] of Object.entries(all)) {
      if (field.startsWith('taken:')) taken.set(field.slice(6), JSON.parse(value) as Taken);
    }
    return taken;
  }
  async newest(): Promise<number | undefined> {
    const value = await this.ctx.redis.hget(this.key, 'newest');
    return value === null ? undefined : Number(value);
  }
  async take(entry: RemoteEntry, runId: string, newest: number | undefined): Promise<void> {
    const taken: Taken = { size: entry.size, mtimeMs: entry.mtimeMs, runId };
    if (entry.etag) taken.etag = entry.etag;
    await this.ctx.redis.hset(
      this.key,
      `taken:${entry.name}`,
      JSON.stringify(taken),
      'newest',
      Math.max(newest ?? 0, entry.mtimeMs),
    );
  }
  async moved(entry: RemoteEntry): Promise<void> {
    await this.ctx.redis.hdel(this.key, `taken:${entry.name}`);
  }
}

async function runOf(ctx: TickContext, runId: string): Promise<RunRecord | undefined> {
  return parseRun(await ctx.redis.hgetall(ctx.keys.run(runId))) ?? undefined;
}

/** Streams the file into a temporary folder (its name keeps the extension that picks the connector). */
async function download(drop: RemoteDrop, entry: RemoteEntry, dir: string): Promise<string> {
  const file = join(dir, entry.name);
  await pipe(drop.open(entry), createWriteStream(file));
  return file;
}

export async function pickUpRemoteExports(
  ctx: TickContext,
  pickup: Pickup,
  spec: RemoteSpec,
): Promise<void> {
  let drop: RemoteDrop | undefined;
  try {
    drop = await openDrop(spec);
    await pickUp(ctx, pickup, drop, spec);
  } catch (error) {
    // An unreachable server, a wrong host key, refused credentials: the files stay for a tick
    // that can read them, and the run list says why this one did not.
    if (!isFerryError(error)) throw error;
    await recordSkip(ctx, skipReason(error));
  } finally {
    await drop?.close();
  }
}

async function pickUp(
  ctx: TickContext,
  pickup: Pickup,
  drop: RemoteDrop,
  spec: RemoteSpec,
): Promise<void> {
  const ledger = new Ledger(ctx);
  const entries = await drop.list();
  const taken = await ledger.taken();
  const fresh: RemoteEntry[] = [];
  for (const entry of entries) {
    const before = taken.get(entry.name);
    if (!before || !sameFile(entry, before)) {
      fresh.push(entry);
      continue;
    }
    // A run took it and its move did not happen (the worker stopped, the connection dropped).
    const run = await runOf(ctx, before.runId);
    if (run && !isFinished(run)) continue;
    await moveAfter(ctx, drop, ledger, entry, pickup, run);
  }
  const newest = await ledger.newest();
  const late = fresh.filter((e) => newest !== undefined && e.mtimeMs < newest);
  for (const entry of late) {
    const to = await drop.move(entry, pickup.errorFolder);
    ctx.logger.warn(
      { file: drop.nameOf(entry), to },
      'export older than one already read: moved to the error folder unread',
    );
  }
  const chosen = chooseExports(
    fresh.filter((e) => !late.includes(e)).map((e) => ({ ...e, mtime: e.mtimeMs })),
    pickup,
    Date.now(),
  );
  if (chosen.take.length === 0) {
    const pattern = 'sftp' in spec ? spec.sftp.pattern : spec.s3.pattern;
    const settling = chosen.settling.length;
    await recordSkip(
      ctx,
      `no new export in ${drop.where} matching "${pattern ?? '*'}"` +
        (settling > 0 ? ` (${settling} still being written)` : ''),
    );
    return;
  }
  for (const entry of chosen.take) {
    const done = await takeOne(ctx, drop, ledger, entry, pickup, newest);
    if (!done) return;
  }
  for (const entry of chosen.superseded) {
    const to = await drop.move(entry, pickup.archiveFolder);
    ctx.logger.info(
      { file: drop.nameOf(entry), to },
      'export superseded by a newer one: archived unread',
    );
  }
}

/** Reads, runs and moves one file; false when the tick must stop here (the file waits). */
async function takeOne(
  ctx: TickContext,
  drop: RemoteDrop,
  ledger: Ledger,
  entry: RemoteEntry,
  pickup: Pickup,
  newest: number | undefined,
): Promise<boolean> {
  const name = drop.nameOf(entry);
  const dir = await mkdtemp(join(tmpdir(), 'ferry-pickup-'));
  try {
    const file = await download(drop, entry, dir);
    const now = await drop.stat(entry);
    if (!now || !sameFile(now, entry)) {
      await recordSkip(
        ctx,
        `no new export: ${name} changed while it was read (still being written)`,
      );
      return false;
    }
    const outcome = await startOrSkip(ctx, file, name);
    if ('refused' in outcome) {
      // Another run holds the pipeline: the file waits for the next tick.
      if (outcome.refused instanceof RunActiveError) return false;
      const to = await drop.move(entry, pickup.errorFolder);
      ctx.logger.warn({ file: name, to }, 'export refused: moved to the error folder');
      return true;
    }
    await ledger.take(entry, outcome.runId, newest);
    // The temporary copy was read whole while the run was planned.
    await rm(dir, { recursive: true, force: true });
    const run = await followRun(ctx.redis, ctx.keys, outcome.runId, () => undefined, ctx.signal);
    // The worker is stopping: the run goes on; the ledger has the file, a later tick moves it.
    if (!isFinished(run)) return false;
    await moveAfter(ctx, drop, ledger, entry, pickup, run);
    return true;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function moveAfter(
  ctx: TickContext,
  drop: RemoteDrop,
  ledger: Ledger,
  entry: RemoteEntry,
  pickup: Pickup,
  run: RunRecord | undefined,
): Promise<void> {
  const folder = run?.status === 'cancelled' ? pickup.errorFolder : pickup.archiveFolder;
  const to = await drop.move(entry, folder);
  await ledger.moved(entry);
  ctx.logger.info(
    { file: drop.nameOf(entry), to, runId: run?.id, status: run?.status },
    'export read: moved',
  );
}
