/**
 * The payload history: what Ferry last delivered for each entity, and for each delivered change
 * the payload the entity had before it (its before-image), kept `undo.retentionDays` per run.
 * The value guards read the first (old values), `ferry undo` the second. Written by delivery for
 * the items the platform confirmed, in the script that commits their state (the only writer).
 */
import { runScript, type RedisClient } from '../../redis/index.js';
import type { StateItem } from '../types.js';
import { beforeImagesKey, liveCountKey, originKey, payloadKey, stateKey } from '../keys.js';
import { COMMIT_DELIVERED, MERGE_PAYLOAD } from '../scripts/commit-delivered.js';
import { RECORD_BEFORE_IMAGES } from '../scripts/record-before-images.js';
import { encodeItem } from '../state-format.js';
import { byResource, type CommitResult } from '../state-store.js';
import { parseExact, stringifyExact } from '../../base/index.js';
import {
  decodePayload,
  encodeDeleted,
  encodePayloadJson,
  type KeptPayload,
} from './payload-codec.js';

const READ_CHUNK = 2_000;
const WRITE_CHUNK = 500;
const SCAN_COUNT = 1_000;

/** A confirmed item and its payload's JSON as it was sent (undefined: none known). */
export interface DeliveredItem {
  item: StateItem;
  json: string | undefined;
}

/** A run's change as its before-image tells it. */
export interface BeforeImage {
  resource: string;
  key: string;
  /** What the run did to the entity. */
  kind: StateItem['kind'];
  /** The version state held when the run planned it (0: never delivered). */
  baseVersion: number;
  /** What Ferry had delivered before; undefined when it kept none. */
  before?: KeptPayload;
}

export interface PayloadHistory {
  /**
   * Commits a run's confirmed items to state (as StateStore.commit does) and records the committed
   * ones, atomically per resource and chunk: one round trip each, two when patches of entities
   * with a payload kept are merged with it.
   */
  commit(
    pipeline: string,
    runId: string,
    delivered: readonly DeliveredItem[],
  ): Promise<CommitResult<StateItem>>;
  /** Whether any payload of the resource is kept (one EXISTS: none on a first night). */
  anyKept(pipeline: string, resource: string): Promise<boolean>;
  /** The payload last delivered for each key, index for index (undefined: none kept). */
  lastDelivered(
    pipeline: string,
    resource: string,
    keys: readonly string[],
  ): Promise<(KeptPayload | undefined)[]>;
  /** A run's before-images; none once they expired. */
  beforeImages(pipeline: string, runId: string): AsyncIterable<BeforeImage[]>;
  /** Seconds before a run's before-images expire (-2: none kept or expired). */
  ttl(pipeline: string, runId: string): Promise<number>;
}

const KIND_LETTER = { upsert: 'u', patch: 'p', delete: 'd' } as const;
const LETTER_KIND: Record<string, StateItem['kind']> = { u: 'upsert', p: 'patch', d: 'delete' };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The JSON of the whole payload after a change. A patch carries only the changed fields (a removed
 * field makes the planner send the whole entity instead), so it is the previous payload with them;
 * any other change's payload is kept as it was sent.
 */
function jsonAfter(item: DeliveredItem, previous: KeptPayload | undefined): string | undefined {
  if (item.item.kind !== 'patch' || item.json === undefined) return item.json;
  const before = previous?.payload;
  if (!isObject(before)) return undefined;
  const patch = parseExact(item.json);
  return isObject(patch) ? stringifyExact({ ...before, ...patch }) : undefined;
}

/** The payload hash's new value for a delivered item ('' when its whole payload is unknown). */
function keptValue(item: DeliveredItem, previous: KeptPayload | undefined): string | Buffer {
  if (item.item.kind === 'delete') return encodeDeleted(item.item.version);
  const after = jsonAfter(item, previous);
  return after === undefined ? '' : encodePayloadJson(item.item.version, after);
}

/** The head of an item's before-image: what the run did, from which version. */
function headOf(item: StateItem): string {
  return `${KIND_LETTER[item.kind]}|${item.baseVersion}|`;
}

function decodeBeforeImage(field: string, value: Buffer): BeforeImage {
  const nl = field.indexOf('\n');
  const first = value.indexOf(0x7c);
  const second = value.indexOf(0x7c, first + 1);
  const rest = value.subarray(second + 1);
  const image: BeforeImage = {
    resource: field.slice(0, nl),
    key: field.slice(nl + 1),
    kind: LETTER_KIND[value.subarray(0, first).toString('latin1')] ?? 'upsert',
    baseVersion: Number(value.subarray(first + 1, second).toString('latin1')),
  };
  if (rest.length > 0) image.before = decodePayload(rest);
  return image;
}

export function createPayloadHistory(
  redis: RedisClient,
  prefix: string,
  retentionDays: number,
): PayloadHistory {
  const ttlSeconds = Math.round(retentionDays * 86_400);

  /** Patches of one resource, committed, whose payloads kept are merged with them and recorded. */
  async function recordMerged(
    pipeline: string,
    runId: string,
    resource: string,
    patches: readonly DeliveredItem[],
  ): Promise<void> {
    const kept = await history.lastDelivered(
      pipeline,
      resource,
      patches.map((d) => d.item.key),
    );
    const args: (string | Buffer)[] = [];
    patches.forEach((d, j) => {
      args.push(d.item.key, String(d.item.version), keptValue(d, kept[j]), headOf(d.item));
    });
    await runScript(
      redis,
      RECORD_BEFORE_IMAGES,
      {
        payloads: payloadKey(prefix, pipeline, resource),
        beforeImages: beforeImagesKey(prefix, pipeline, runId),
      },
      { ttlSeconds, resource, items: args },
    );
  }

  const history: PayloadHistory = {
    async anyKept(pipeline, resource) {
      return (await redis.exists(payloadKey(prefix, pipeline, resource))) === 1;
    },

    async lastDelivered(pipeline, resource, keys) {
      const out: (KeptPayload | undefined)[] = [];
      for (let i = 0; i < keys.length; i += READ_CHUNK) {
        const values = await redis.hmgetBuffer(
          payloadKey(prefix, pipeline, resource),
          ...keys.slice(i, i + READ_CHUNK),
        );
        for (const v of values) out.push(v ? decodePayload(v) : undefined);
      }
      return out;
    },

    async commit(pipeline, runId, delivered) {
      const committed: StateItem[] = [];
      const stale: StateItem[] = [];
      for (const [resource, list] of byResource(delivered, (d) => d.item.resource)) {
        const keys = {
          state: stateKey(prefix, pipeline, resource),
          liveCount: liveCountKey(prefix, pipeline, resource),
          origin: originKey(prefix, pipeline, resource),
          payloads: payloadKey(prefix, pipeline, resource),
          beforeImages: beforeImagesKey(prefix, pipeline, runId),
        };
        for (let i = 0; i < list.length; i += WRITE_CHUNK) {
          const chunk = list.slice(i, i + WRITE_CHUNK);
          const items: (string | Buffer)[] = [];
          for (const d of chunk) {
            const merge = d.item.kind === 'patch' && d.json !== undefined;
            items.push(
              d.item.key,
              headOf(d.item) + encodeItem(d.item),
              merge ? MERGE_PAYLOAD : keptValue(d, undefined),
            );
          }
          const outcomes = await runScript(redis, COMMIT_DELIVERED, keys, {
            runId,
            ttlSeconds,
            resource,
            items,
          });
          const merging: DeliveredItem[] = [];
          chunk.forEach((d, j) => {
            if (outcomes[j] === 'stale') return void stale.push(d.item);
            committed.push(d.item);
            if (outcomes[j] === 'merge') merging.push(d);
          });
          if (merging.length > 0) await recordMerged(pipeline, runId, resource, merging);
        }
      }
      return { committed, stale };
    },

    async *beforeImages(pipeline, runId) {
      const key = beforeImagesKey(prefix, pipeline, runId);
      let cursor = '0';
      do {
        const [next, flat] = await redis.hscanBuffer(key, cursor, 'COUNT', SCAN_COUNT);
        cursor = next.toString();
        const batch: BeforeImage[] = [];
        for (let i = 0; i < flat.length; i += 2) {
          batch.push(
            decodeBeforeImage((flat[i] as Buffer).toString('utf8'), flat[i + 1] as Buffer),
          );
        }
        if (batch.length > 0) yield batch;
      } while (cursor !== '0');
    },

    async ttl(pipeline, runId) {
      return redis.ttl(beforeImagesKey(prefix, pipeline, runId));
    },
  };
  return history;
}
