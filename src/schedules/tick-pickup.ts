/**
 * A tick of a pipeline with `schedule.pickup`: tonight's export out of its folder, read once. Each
 * file taken is run and followed to its end, then moved to the archive folder (the run ended) or
 * the error folder (refused or cancelled); files a newer export superseded go to the archive
 * unread. No file ready: a skipped run "no new export", never a run that reads an empty folder.
 */
import { type Pickup, loadPipeline, sourceSpecOf } from '../pipeline/index.js';
import { RunActiveError, followRun, isFinished } from '../runs/index.js';
import { moveExport, pickExports } from './pickup.js';
import { recordSkip, startOrSkip, type TickContext } from './tick-run.js';

export async function pickUpExports(ctx: TickContext, pickup: Pickup): Promise<void> {
  const spec = sourceSpecOf(loadPipeline(ctx.pipeline, ctx.config));
  if (!('folder' in spec)) return; // the pipeline file's check makes pickup go with a folder
  const picked = await pickExports(spec.folder, spec.pattern, pickup);
  if (picked.take.length === 0) {
    const settling = picked.settling.length;
    await recordSkip(
      ctx,
      `no new export in ${spec.folder} matching "${spec.pattern ?? '*'}"` +
        (settling > 0 ? ` (${settling} still being written)` : ''),
    );
    return;
  }
  for (const file of picked.take) {
    const outcome = await startOrSkip(ctx, file);
    if ('refused' in outcome) {
      // Another run holds the pipeline: the file waits for the next tick.
      if (outcome.refused instanceof RunActiveError) return;
      const to = await moveExport(file, pickup.errorFolder);
      ctx.logger.warn({ file, to }, 'export refused: moved to the error folder');
      continue;
    }
    const run = await followRun(ctx.redis, ctx.keys, outcome.runId, () => undefined, ctx.signal);
    // The worker is stopping: the run goes on; the file stays, and the next tick finds nothing
    // new in it (the state has what this run delivered).
    if (!isFinished(run)) return;
    const folder = run.status === 'cancelled' ? pickup.errorFolder : pickup.archiveFolder;
    const to = await moveExport(file, folder);
    ctx.logger.info({ file, to, runId: run.id, status: run.status }, 'export read: moved');
  }
  for (const file of picked.superseded) {
    const to = await moveExport(file, pickup.archiveFolder);
    ctx.logger.info({ file, to }, 'export superseded by a newer one: archived unread');
  }
}
