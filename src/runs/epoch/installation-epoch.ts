/**
 * The installation's epoch: a random id written to Redis by the first Ferry process that finds
 * none. A Redis restarted empty (a lost volume, a failover to an empty replica, FLUSHALL) loses
 * it with everything else, so a process that knew the old id and finds another one (or none)
 * knows Redis lost its data, and records that in the new Redis for every other process to see:
 * runs and state before it are gone, and the next run of each pipeline would resend its whole
 * catalog. Such a run stops before sending until the operator chooses (see data-loss-guard.ts).
 */
import { randomUUID } from 'node:crypto';
import { type RedisClient, luaScript, runLua } from '../../redis/index.js';
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

/** Creates the epoch when there is none; returns {id, createdAt}. */
const ENSURE = luaScript(
  `local id = redis.call('HGET', KEYS[1], 'id')
if id then return {id, redis.call('HGET', KEYS[1], 'createdAt')} end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'createdAt', ARGV[2])
return {ARGV[1], ARGV[2]}`,
  1,
);

/** Records a loss once per lost epoch, however many processes notice it. Returns 1 when new. */
const RECORD_LOSS = luaScript(
  `if redis.call('HGET', KEYS[1], 'previousEpoch') == ARGV[1] then return 0 end
local count = redis.call('HGET', KEYS[1], 'count') or '0'
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'previousEpoch', ARGV[1], 'previousCreatedAt', ARGV[2],
  'detectedAt', ARGV[3], 'detectedBy', ARGV[4], 'count', tonumber(count) + 1)
return 1`,
  1,
);

/** The installation's epoch, created when Redis has none (a new installation, or lost data). */
export async function ensureEpoch(redis: RedisClient, keys: DeliveryKeys): Promise<Epoch> {
  const [id, createdAt] = (await runLua(
    redis,
    ENSURE,
    [keys.epoch],
    [randomUUID(), Date.now()],
  )) as [string, string];
  return { id, createdAt: Number(createdAt) };
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
  const recorded = await runLua(
    redis,
    RECORD_LOSS,
    [keys.dataLoss],
    [known.id, known.createdAt, Date.now(), detectedBy],
  );
  return { epoch, lost: known, isNew: recorded === 1 };
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
