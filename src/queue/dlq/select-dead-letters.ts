import { UsageError } from '../../errors/index.js';
import { NotFoundError, type DeadLetter, type DeadLetterStore } from '../../runs/index.js';

/** Which dead letters a replay or purge is about: ids, a run's, or all of them. */
export interface DeadLetterSelection {
  ids?: readonly string[];
  runId?: string;
  all?: boolean;
}

export function checkSelection(selection: DeadLetterSelection, command: string): void {
  const given = [selection.ids?.length ? 1 : 0, selection.runId ? 1 : 0, selection.all ? 1 : 0];
  if (given.reduce((a, b) => a + b, 0) !== 1) {
    throw new UsageError(
      `ferry ${command} takes dead-letter ID(s), --run R or --all (one of them).`,
    );
  }
}

export async function selectDeadLetters(
  dlq: DeadLetterStore,
  selection: DeadLetterSelection,
): Promise<DeadLetter[]> {
  if (selection.all) return await dlq.list();
  if (selection.runId) return await dlq.list({ runId: selection.runId });
  const out: DeadLetter[] = [];
  for (const id of selection.ids ?? []) {
    const entry = await dlq.get(id);
    if (!entry) throw new NotFoundError('dead letter', id, 'Run `ferry dlq list` to see the ids.');
    out.push(entry);
  }
  return out;
}
