import type { RunReport } from '../runs/index.js';
import { undoRun, type UndoResult } from '../orchestrate/index.js';
import { isFerryError } from '../errors/index.js';
import type { ServeContext } from './serve-context.js';
import type { Principal } from './tokens.js';

const UNDOABLE = new Set(['succeeded', 'partial', 'failed', 'cancelled']);

/**
 * The dry run of undoing a finished run, for an operator's view of its page; none for a viewer, a
 * run that sent nothing, an export, or one whose before-images expired.
 */
export async function undoPreview(
  ctx: ServeContext,
  principal: Principal,
  report: RunReport,
): Promise<UndoResult | undefined> {
  if (principal.role !== 'operator' || !UNDOABLE.has(report.status) || report.kind === 'export') {
    return undefined;
  }
  try {
    return await undoRun({
      config: ctx.config,
      redis: ctx.redis,
      logger: ctx.logger,
      runId: report.runId,
      dryRun: true,
    });
  } catch (error) {
    if (isFerryError(error)) return undefined; // nothing to undo: the page offers nothing
    throw error;
  }
}
