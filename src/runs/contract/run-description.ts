/**
 * The description a run was planned by, kept in Redis by its sha256 (docs/INTERFACE.md, Which
 * description runs use), so that its workers send its jobs by the same one: a worker keeps the
 * description it read at start, and without a pin the live one may have changed since (a new
 * envelope, path or auth), before the run was planned or while it runs. The run records the sha
 * (`descriptionSha`); the text is written once per sha and kept as long as a finished run's record.
 */
import type { ContractInUse } from '../../config/index.js';
import type { RedisClient } from '../../redis/index.js';
import { RETENTION_S } from '../finish-run.js';
import type { DeliveryKeys } from '../keys.js';

/** What a worker needs to build a config from a kept description. */
export type KeptDescription = Omit<ContractInUse, 'configured'>;

/** Keeps `contract`'s text under its sha, or only extends it when kept already; its sha. */
export async function keepRunDescription(
  redis: RedisClient,
  keys: DeliveryKeys,
  contract: ContractInUse,
): Promise<string> {
  const key = keys.contractText(contract.sha256);
  // A schedule may plan every minute by the same description: its text goes over the wire once.
  if ((await redis.expire(key, RETENTION_S)) === 0) {
    const { from, source, text } = contract;
    await redis.multi().hset(key, { from, source, text }).expire(key, RETENTION_S).exec();
  }
  return contract.sha256;
}

/** The description kept under `sha256`, or undefined when none is (any more). */
export async function readRunDescription(
  redis: RedisClient,
  keys: DeliveryKeys,
  sha256: string,
): Promise<KeptDescription | undefined> {
  const f = await redis.hgetall(keys.contractText(sha256));
  if (f.text === undefined) return undefined;
  return {
    from: f.from === 'pinned' ? 'pinned' : 'live',
    source: f.source ?? '',
    sha256,
    text: f.text,
  };
}
