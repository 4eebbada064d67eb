/**
 * Run progress on stderr: a bar redrawn in place on a terminal, plain lines elsewhere (at most one
 * every LINE_EVERY_MS, and the last one), so logs and CI output stay readable.
 */
import type { Writable } from 'node:stream';
import { itemTotals, settledItems, type RunRecord } from './run-record.js';

const WIDTH = 30;
const LINE_EVERY_MS = 2_000;

interface Figures {
  done: number;
  planned: number;
  failed: number;
  stage: number;
  percent: number;
}

function figures(run: RunRecord): Figures {
  const { done, planned } = settledItems(run);
  const { failed } = itemTotals(run.operations);
  const stage = Math.min(run.currentStage + 1, run.stages.length);
  const percent = planned > 0 ? Math.floor((done / planned) * 100) : 100;
  return { done, planned, failed, stage, percent };
}

export interface ProgressDisplay {
  update(run: RunRecord): void;
  end(): void;
}

export function progressDisplay(out: Writable): ProgressDisplay {
  const tty = (out as { isTTY?: boolean }).isTTY === true;
  let lastLine = 0;
  let lastText = '';
  let drawn = false;
  return {
    update(run) {
      const { done, planned, failed, stage, percent } = figures(run);
      const counts = `${done}/${planned} items, ${failed} failed, stage ${stage}/${run.stages.length}`;
      if (tty) {
        const filled = Math.round((percent / 100) * WIDTH);
        out.write(
          `\r[${'#'.repeat(filled)}${' '.repeat(WIDTH - filled)}] ${percent}% ${counts}\x1b[K`,
        );
        drawn = true;
        return;
      }
      const text = `run ${run.id}: ${percent}% ${counts}`;
      const now = Date.now();
      if (text !== lastText && (now - lastLine >= LINE_EVERY_MS || run.status !== 'running')) {
        out.write(`${text}\n`);
        lastLine = now;
        lastText = text;
      }
    },
    end() {
      if (tty && drawn) out.write('\n');
    },
  };
}
