/** A run report for people: what was planned, delivered, dead-lettered and rejected, and where. */
import { durationText, firstFew } from '../base/index.js';
import { guardReason, pricesLine, rowErrorText } from '../pipeline/index.js';
import { itemTotals, sentCount } from './run-record.js';
import type { RunReport } from './run-report.js';

const SHOWN = 10;

/** "items.csv:2, 3, 5, 8, 9 and 51 more": each file once, its lines after it. */
function sourcesText(sources: readonly { file: string; line: number }[]): string {
  const byFile = new Map<string, string[]>();
  for (const s of sources) {
    const rows = byFile.get(s.file) ?? [];
    rows.push(String(s.line));
    byFile.set(s.file, rows);
  }
  return [...byFile].map(([file, rows]) => `${file}:${firstFew(rows)}`).join('; ');
}

/**
 * How long the run took, planning apart from what followed. A run cancelled before any of its
 * items was sent spent that time waiting (for a worker, a lane, the rate gate), not delivering.
 */
function tookText(report: RunReport, seconds: number): string {
  const plan = report.planSeconds;
  if (plan === undefined) return durationText(seconds);
  const after =
    report.status === 'cancelled' && sentCount(itemTotals(report.operations)) === 0
      ? `${durationText(seconds)} until the cancel, nothing sent`
      : `${durationText(seconds)} delivering`;
  return `${durationText(plan + seconds)}: ${durationText(plan)} reading and planning, ${after}`;
}

export function reportText(report: RunReport): string {
  const lines = [`Run ${report.runId} (${report.pipeline}): ${report.status}`];
  const wanted = report.wantedDeletes;
  if (wanted) {
    const ops = Object.entries(wanted.operations).map(([id, n]) => `${n} ${id}`);
    const keys = wanted.sample.map((s) => s.key);
    lines.push(
      `  stopped by the mass-delete guard, nothing sent: it would delete ${wanted.deletes} of the ` +
        `${wanted.inState} entities in state (${ops.join(', ')}), e.g. ${keys.join(', ')}.`,
    );
  }
  const contract = report.contract;
  if (contract?.changed) {
    lines.push(
      contract.breaking > 0
        ? `  refused before anything was sent: ${contract.breaking} breaking change(s) to the platform's description (\`ferry interface diff\`).`
        : `  the platform's description changed since it was pinned: ${contract.nonBreaking} non-breaking change(s) (\`ferry interface diff\`, \`ferry interface accept\`).`,
    );
  }
  for (const r of report.guards?.filter((g) => g.tripped) ?? []) {
    const samples = r.samples
      .slice(0, SHOWN)
      .map((s) => `${s.key} ${JSON.stringify(s.old)} -> ${JSON.stringify(s.new)}`);
    lines.push(`  stopped by ${guardReason(r)}; nothing sent.`);
    if (samples.length > 0) lines.push(`    e.g. ${samples.join(', ')}`);
  }
  if (report.prices) lines.push(`  ${pricesLine(report.prices)}`);
  if (report.status === 'running') {
    lines.push('  enqueued; `ferry worker` delivers it, `ferry status` shows its progress.');
  }
  if (report.status === 'cancelling' || report.status === 'cancelled') {
    const t = itemTotals(report.operations);
    const notSent = t.planned - sentCount(t);
    lines.push(
      `  ${notSent} planned item(s) not sent; what was delivered is committed, so the next run of ` +
        `${report.pipeline} sends only the rest.`,
    );
  }
  const ops = Object.entries(report.operations);
  const width = Math.max(9, ...ops.map(([id]) => id.length));
  if (ops.length > 0) {
    lines.push(
      `  ${'operation'.padEnd(width)}  planned  delivered  failed  stale  skipped`,
      ...ops.map(
        ([id, c]) =>
          `  ${id.padEnd(width)}  ${String(c.planned).padStart(7)}  ${String(c.delivered).padStart(9)}  ` +
          `${String(c.failed).padStart(6)}  ${String(c.stale).padStart(5)}  ${String(c.skipped).padStart(7)}`,
      ),
    );
  } else lines.push('  nothing to send: every entity is as the platform has it.');
  lines.push(
    `  rows read: ${report.rows}, rejected: ${report.rejected}, dead-lettered items: ${report.deadLettered}`,
  );
  for (const e of report.errors.slice(0, SHOWN)) {
    lines.push(`  rejected ${rowErrorText(e)}`);
  }
  if (report.rejected > SHOWN)
    lines.push(`  ... and ${report.rejected - SHOWN} more rejected records`);
  for (const d of report.deadLetters.slice(0, SHOWN)) {
    const where = sourcesText(d.source);
    lines.push(
      `  dead letter ${d.id} ${d.operationId} [${firstFew(d.keys)}]${where ? ` from ${where}` : ''}: ${d.error ?? d.message}`,
    );
  }
  if (report.deadLetters.length > SHOWN) {
    lines.push(
      `  ... and ${report.deadLetters.length - SHOWN} more dead letters (\`ferry dlq list --run ${report.runId}\`)`,
    );
  }
  if (report.deadLetters.length > 0) {
    lines.push(`  fix and replay them: ferry dlq replay --run ${report.runId} [--payloads FILE]`);
  }
  if (report.seconds !== undefined) lines.push(`  took ${tookText(report, report.seconds)}`);
  if (report.files) {
    lines.push(`  report: ${report.files.json}`);
    // The CSV is written for every run (scripts find it at one place); named when it lists some.
    if (report.rejected > 0 || report.deadLettered > 0)
      lines.push(`  failures: ${report.files.csv}`);
  }
  return `${lines.join('\n')}\n`;
}
