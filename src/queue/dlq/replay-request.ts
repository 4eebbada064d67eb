/**
 * A dead letter -> the request that replays it: its items, with edited payloads where the payloads
 * file has them, and an idempotency key of its own. The key is the original one when the entry
 * ran out of retries and is replayed unedited (the platform may have applied it: it must answer
 * from its stored result, not apply it twice); otherwise a new one (the last answer was a refusal,
 * which the platform would replay as it is).
 */
import type { Binding } from '../../interface/index.js';
import { type ErrorCode, UsageError } from '../../errors/index.js';
import { schemaFor, type DeliveryItem, type OperationContracts } from '../../pipeline/index.js';
import type { JobRequest, DeadLetter } from '../../runs/index.js';
import { jobRequestOf, replayKey } from '../request-body.js';
import type { EditedPayloads } from './edited-payloads.js';

/** Outcomes after which the platform may or may not have applied the request. */
const UNCERTAIN: ReadonlySet<ErrorCode> = new Set([
  'FERRY_HTTP_TRANSIENT',
  'FERRY_HTTP_IN_PROGRESS',
  'FERRY_HTTP_RATE_LIMITED',
  'FERRY_NETWORK',
  'FERRY_TIMEOUT',
  'FERRY_DELIVERY_FAILED',
]);

export interface ReplayRequest {
  entry: DeadLetter;
  request: JobRequest;
  edited: boolean;
}

/**
 * An edit is typed by hand: it gets the check a planned payload gets, so a typo (or a price typed
 * as a number, where Ferry's assumed bodies want decimal strings) is refused before anything is
 * sent: the described platform's request schema where there is a description (`contracts`), else
 * Ferry's assumed resource schema.
 */
function checkEditedPayload(
  entry: DeadLetter,
  item: DeliveryItem,
  binding: Binding,
  payload: unknown,
  contracts: OperationContracts | undefined,
): void {
  if (item.kind === 'delete') return;
  const what = `Edited payload for ${entry.operationId} item "${item.key}"`;
  if (contracts) {
    const violations = contracts({ operation: binding.operation, binding })?.check(payload);
    if (!violations) return;
    const problems = violations.map((v) => `${v.pointer || '(payload)'}: ${v.message}`);
    throw new UsageError(
      `${what} does not fit the platform's request schema: ${problems.join('; ')}.`,
    );
  }
  const schema = schemaFor(binding.operation.resource, binding.keyField);
  if (!schema) return;
  const result = (item.kind === 'patch' ? schema.partial() : schema).safeParse(payload);
  if (result.success) return;
  const problems = result.error.issues
    .map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`)
    .join('; ');
  throw new UsageError(
    `${what} is not a valid ${binding.operation.resource} payload: ${problems}.`,
  );
}

function editedItem(
  entry: DeadLetter,
  item: DeliveryItem,
  binding: Binding,
  edits: EditedPayloads | undefined,
  contracts: OperationContracts | undefined,
): DeliveryItem {
  const edit = edits?.find(entry.operationId, item.key);
  if (!edit) return item;
  if (binding.body === 'items') {
    const key = (edit.payload as Record<string, unknown> | null)?.[binding.keyField];
    if (key !== undefined && key !== item.key) {
      throw new UsageError(
        `Edited payload for ${entry.operationId} item "${item.key}" has ${binding.keyField} ` +
          `"${String(key)}": an edit may change the item, not its key.`,
      );
    }
  }
  checkEditedPayload(entry, item, binding, edit.payload, contracts);
  // The hash and the input fingerprint stay the source's: state then records that this source
  // version was delivered, so the next run does not send the unfixed source data again until the
  // source changes.
  return { ...item, payload: edit.payload };
}

/** `contracts`: the described platform's (interface.openapi), which edits are checked against. */
export function replayRequest(
  entry: DeadLetter,
  binding: Binding,
  edits: EditedPayloads | undefined,
  contracts?: OperationContracts,
): ReplayRequest {
  const items = entry.items.map((item) => editedItem(entry, item, binding, edits, contracts));
  const edited = items.some((item, i) => item !== entry.items[i]);
  const keepKey = !edited && UNCERTAIN.has(entry.errorCode);
  return {
    entry,
    edited,
    request: jobRequestOf(
      binding,
      {
        operationId: entry.operationId,
        pathParams: entry.pathParams,
        idempotencyKey: keepKey ? entry.idempotencyKey : replayKey(entry.idempotencyKey, items),
      },
      items,
    ),
  };
}
