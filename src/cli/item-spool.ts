/**
 * The items `ferry plan --show-items` lists, kept on disk while the plan is made and copied out
 * after the plan's figures (which come first and are known only at its end). Held in memory, as the
 * plan's requests, a million rows' two million items took 2.5 GB. One file per stage, as the
 * requests come, so the items are listed in stage order as a run sends them.
 */
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { PlanItemView } from '../pipeline/index.js';
import { writeOut } from './command.js';

/** Characters buffered per stage before they are written to its file. */
const FLUSH_AT = 64 * 1024;

interface StageFile {
  path: string;
  fd: number;
  buffered: string;
  items: number;
}

export class ItemSpool {
  private readonly dir = mkdtempSync(join(tmpdir(), 'ferry-plan-items-'));
  private readonly stages = new Map<number, StageFile>();
  /** Items added so far. */
  count = 0;

  /** `text` writes one item; `separator` goes between two items. */
  constructor(
    private readonly text: (item: PlanItemView) => string,
    private readonly separator: string,
  ) {}

  add(stage: number, items: readonly PlanItemView[]): void {
    let file = this.stages.get(stage);
    if (!file) {
      const path = join(this.dir, `stage-${stage}`);
      file = { path, fd: openSync(path, 'w'), buffered: '', items: 0 };
      this.stages.set(stage, file);
    }
    for (const item of items) {
      file.buffered += `${file.items > 0 ? this.separator : ''}${this.text(item)}`;
      file.items += 1;
      if (file.buffered.length >= FLUSH_AT) this.flush(file);
    }
    this.count += items.length;
  }

  private flush(file: StageFile): void {
    if (file.buffered) writeSync(file.fd, file.buffered);
    file.buffered = '';
  }

  /** Writes every item, stage by stage, as fast as `out` takes them. */
  async copyTo(out: Writable): Promise<void> {
    const files = [...this.stages.entries()].sort(([a], [b]) => a - b).map(([, f]) => f);
    for (const [i, file] of files.entries()) {
      this.flush(file);
      if (i > 0) await writeOut(out, this.separator);
      for await (const chunk of createReadStream(file.path)) await writeOut(out, chunk as Buffer);
    }
  }

  /** Deletes the files. */
  remove(): void {
    for (const file of this.stages.values()) closeSync(file.fd);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
