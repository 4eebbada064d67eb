/**
 * The installation's epoch: a random id written to Redis by the first Ferry process that finds
 * none. A Redis restarted empty (a lost volume, a failover to an empty replica, FLUSHALL) loses
 * it with everything else, so a process that knew the old id and finds another one (or none)
 * knows Redis lost its data, and records that in the new Redis for every other process to see:
 * runs and state before it are gone, and the next run of each pipeline would resend its whole
 * catalog. Such a run stops before sending until the operator chooses (see data-loss-guard.ts).
 */
import { randomUUID } from 'node:crypto';
import { type RedisClient, runScript } from '../../redis/index.js';
import { ENSURE_EPOCH } from '../scripts/ensure-epoch.js';
import { RECORD_DATA_LOSS } from '../scripts/record-data-loss.js';
import type { DeliveryKeys } from '../keys.js';

export interface Epoch {
  id: string;
  createdAt: number;
}

export interface DataLoss {
  /** When a process noticed (ms since the epoch). */
  detectedAt: number;
  /** The process that noticed first: host:pid. */
  detectedBy: string;
  /** The epoch that was lost, and when it began. */
  previousEpoch: string;
  previousCreatedAt: number;
  /** Losses recorded in this Redis's life. */
  count: number;
  /** Pipelines whose operator chose to resend everything since (`--resend-all`). */
  resent: string[];
}

/** The installation's epoch, created when Redis has none (a new installation, or lost data). */
export async function ensureEpoch(redis: RedisClient, keys: DeliveryKeys): Promise<Epoch> {
  return await runScript(
    redis,
    ENSURE_EPOCH,
    { epoch: keys.epoch },
    { id: randomUUID(), createdAt: Date.now() },
  );
}

/**
 * Compares the epoch a process knew with Redis's. When they differ, Redis lost its data: the loss
 * is recorded (once) and returned with `isNew` true for the one process that recorded it.
 */
export async function checkEpoch(
  redis: RedisClient,
  keys: DeliveryKeys,
  known: Epoch,
  detectedBy: string,
): Promise<{ epoch: Epoch; lost?: Epoch; isNew: boolean }> {
  const epoch = await ensureEpoch(redis, keys);
  if (epoch.id === known.id) return { epoch, isNew: false };
  const isNew = await runScript(
    redis,
    RECORD_DATA_LOSS,
    { dataLoss: keys.dataLoss },
    {
      previousEpoch: known.id,
      previousCreatedAt: known.createdAt,
      detectedAt: Date.now(),
      detectedBy,
    },
  );
  return { epoch, lost: known, isNew };
}

export async function readDataLoss(
  redis: RedisClient,
  keys: DeliveryKeys,
): Promise<DataLoss | undefined> {
  const h = await redis.hgetall(keys.dataLoss);
  if (!h.previousEpoch) return undefined;
  return {
    detectedAt: Number(h.detectedAt),
    detectedBy: h.detectedBy ?? '',
    previousEpoch: h.previousEpoch,
    previousCreatedAt: Number(h.previousCreatedAt),
    count: Number(h.count ?? 1),
    resent: Object.keys(h)
      .filter((k) => k.startsWith('resent:'))
      .map((k) => k.slice('resent:'.length))
      .sort(),
  };
}

/** The operator chose to resend the pipeline's whole catalog once: its runs go on as usual. */
export async function markResent(
  redis: RedisClient,
  keys: DeliveryKeys,
  pipeline: string,
): Promise<void> {
  await redis.hset(keys.dataLoss, `resent:${pipeline}`, Date.now());
}
