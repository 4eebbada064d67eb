/**
 * An entity's trace for people: first the plain answer (delivered in run X at T with hash H;
 * planned but failed: dead letter D with error E; rejected in run X at file:line; deleted in run
 * X; never seen by Ferry), then the state per resource, the changes recent runs planned, the
 * rejected rows and the dead letters.
 */
import type { DeadLetterRow } from '../dead-letters/dead-letter-views.js';
import type { EntityTrace, TracedChange, TracedRejection, TracedState } from './entity-trace.js';

/** `2026-01-02T03:04:05.678Z` -> `2026-01-02 03:04:05Z`. */
const when = (isoTime: string): string => `${isoTime.slice(0, 10)} ${isoTime.slice(11, 19)}Z`;

const shortHash = (hash: string): string => (hash.length > 12 ? `${hash.slice(0, 12)}…` : hash);

function committedText(state: TracedState): string {
  const c = state.committed;
  if (!c) return `at version ${state.version} (which run committed it was not recorded then)`;
  const at = c.from === c.to ? `at ${when(c.to)}` : `between ${when(c.from)} and ${when(c.to)}`;
  return `in run ${c.runId} ${at}`;
}

function failedText(row: DeadLetterRow): string {
  const status = row.status === undefined ? 'no answer' : `status ${row.status}`;
  return `dead letter ${row.id} (${row.operationId}, ${status}, ${row.errorCode}): ${row.message}`;
}

/** `items.csv line 12: Unit Price: expected a decimal` (the field named once). */
export function rejectionText(r: TracedRejection): string {
  const named = !r.field || r.message.startsWith(`${r.field}:`);
  return `${r.file} line ${r.line}: ${named ? '' : `${r.field}: `}${r.message}`;
}

/** The newest rejected row of the key when no delivery came after it: the platform has an older version, or none. */
export function rejectedSinceDelivery(trace: EntityTrace): TracedRejection | undefined {
  const rejection = trace.rejected[0];
  const committed = trace.state?.committed;
  return rejection && !(committed && committed.to >= rejection.startedAt) ? rejection : undefined;
}

/** The answer to "why is this entity (not) on the platform?", in a sentence or three. */
export function traceVerdict(trace: EntityTrace): string[] {
  const lines: string[] = [];
  const { state } = trace;
  const pending = trace.changes.find((c) => c.outcome === 'pending');
  if (state && !state.deleted) {
    lines.push(
      `Delivered ${committedText(state)} with hash ${shortHash(state.hash)} (${state.resource}).`,
    );
  } else if (state?.deleted) {
    lines.push(
      `Deleted ${committedText(state)} (${state.resource}): it was missing from the pipeline's ` +
        'export, so Ferry deleted it on the platform.',
    );
  }
  const rejection = rejectedSinceDelivery(trace);
  if (rejection) {
    lines.push(
      `Rejected in run ${rejection.runId} (${when(rejection.startedAt)}): ` +
        `${rejectionText(rejection)}. Fix the row in the export; the next run sends it.`,
    );
  }
  const nothing =
    trace.changes.length === 0 && trace.deadLetters.length === 0 && trace.rejected.length === 0;
  if (!state && nothing) {
    lines.push(
      `Never seen by Ferry: no state, no change planned in the last ${trace.runsSearched} run(s) ` +
        `of ${trace.pipeline}, no rejected row and no dead letter for "${trace.key}". Check that ` +
        'the export holds this exact key (leading zeros count).',
    );
  } else if (!state && !pending && trace.deadLetters.length === 0 && trace.changes.length > 0) {
    lines.push('Planned but not delivered: see the changes below.');
  }
  for (const row of trace.deadLetters) {
    lines.push(
      `Planned but failed: ${failedText(row)}. Fix the data, or replay it with ` +
        `\`ferry dlq replay ${row.id}\` (--payloads to edit it).`,
    );
  }
  if (pending) {
    lines.push(
      `Run ${pending.runId} is still going: its ${pending.operationId} ${pending.change} of this ` +
        'key is not delivered yet.',
    );
  }
  return lines;
}

function stateLine(s: TracedState): string {
  const what = s.deleted ? 'deleted' : `hash ${shortHash(s.hash)}`;
  const by = s.committed ? `run ${s.committed.runId}, ${when(s.committed.to)}` : 'run not recorded';
  return `  ${s.entity} (${s.resource}): ${what}, version ${s.version}, ${by}`;
}

function changeLine(c: TracedChange): string {
  const dl = c.deadLetterId ? ` (${c.deadLetterId})` : '';
  const traced = c.traceId ? `\n      trace ${c.traceUrl ?? c.traceId}` : '';
  return (
    `  ${when(c.startedAt)}  ${c.runId} (${c.trigger}, ${c.runStatus})  ` +
    `${c.operationId} ${c.change}: ${c.outcome.replace('_', ' ')}${dl}${traced}`
  );
}

export function traceText(trace: EntityTrace): string {
  const lines = [`${trace.pipeline} / "${trace.key}"`, ...traceVerdict(trace).map((l) => `  ${l}`)];
  lines.push('State:', ...(trace.states.length ? trace.states.map(stateLine) : ['  none']));
  lines.push(
    `Changes planned in the last ${trace.runsSearched} run(s):`,
    ...(trace.changes.length ? trace.changes.map(changeLine) : ['  none']),
  );
  lines.push(
    'Rejected rows:',
    ...(trace.rejected.length
      ? trace.rejected.map((r) => `  ${when(r.startedAt)}  ${r.runId}  ${rejectionText(r)}`)
      : ['  none']),
  );
  lines.push(
    'Dead letters:',
    ...(trace.deadLetters.length
      ? trace.deadLetters.map(
          (r) =>
            `  ${r.id}  ${when(r.at)}  run ${r.runId}  ${r.operationId}  ` +
            `${r.status ?? 'no answer'}  ${r.errorCode}`,
        )
      : ['  none']),
  );
  return `${lines.join('\n')}\n`;
}
