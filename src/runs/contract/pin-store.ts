/**
 * The platform's description as the installation accepted it (the pin), and as it was last read
 * before a run (the sighting), in Redis under the installation's prefix (docs/INTERFACE.md,
 * Pinning the description). The pin keeps the text itself, so a later comparison needs no copy of
 * the old file; the sighting keeps the changes it found, so the console, /metrics and a run whose
 * conditional GET answered 304 read them without parsing anything.
 */
import type { RedisClient } from '../../redis/index.js';
import type { DeliveryKeys } from '../keys.js';

/** How a URL's description was last served: what makes the next read conditional. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface ContractPin {
  sha256: string;
  /** File path or URL it was read from. */
  source: string;
  text: string;
  version?: string;
  title?: string;
  validators: Validators;
  pulledAt: number;
  pulledBy: string;
}

/** A change as stored and shown: what the classifier names (interface/openapi/diff-rules.ts). */
export interface StoredChange {
  kind: string;
  operationId?: string;
  path: string;
  message: string;
}

export interface ContractSighting {
  sha256: string;
  source: string;
  version?: string;
  validators: Validators;
  checkedAt: number;
  /** Hash of the usage (pipelines' operations and fields) the changes were classified for. */
  usage: string;
  /** The text read, kept only while it differs from the pin (a 304 then needs it to re-classify). */
  text?: string;
  breaking: StoredChange[];
  nonBreaking: StoredChange[];
}

function validatorFields(v: Validators): Record<string, string> {
  return {
    ...(v.etag ? { etag: v.etag } : {}),
    ...(v.lastModified ? { lastModified: v.lastModified } : {}),
  };
}

function validatorsOf(fields: Record<string, string>): Validators {
  return {
    ...(fields.etag ? { etag: fields.etag } : {}),
    ...(fields.lastModified ? { lastModified: fields.lastModified } : {}),
  };
}

export async function readPin(
  redis: RedisClient,
  keys: DeliveryKeys,
): Promise<ContractPin | undefined> {
  const f = await redis.hgetall(keys.contractPin);
  if (!f.sha256 || f.text === undefined) return undefined;
  return {
    sha256: f.sha256,
    source: f.source ?? '',
    text: f.text,
    ...(f.version ? { version: f.version } : {}),
    ...(f.title ? { title: f.title } : {}),
    validators: validatorsOf(f),
    pulledAt: Number(f.pulledAt ?? 0),
    pulledBy: f.pulledBy ?? '',
  };
}

/** Pins a description; what was seen against the old pin is forgotten. */
export async function writePin(
  redis: RedisClient,
  keys: DeliveryKeys,
  pin: ContractPin,
): Promise<void> {
  const fields: Record<string, string | number> = {
    sha256: pin.sha256,
    source: pin.source,
    text: pin.text,
    pulledAt: pin.pulledAt,
    pulledBy: pin.pulledBy,
    ...(pin.version ? { version: pin.version } : {}),
    ...(pin.title ? { title: pin.title } : {}),
    ...validatorFields(pin.validators),
  };
  await redis
    .multi()
    .del(keys.contractPin, keys.contractSeen)
    .hset(keys.contractPin, fields)
    .exec();
}

export async function readSighting(
  redis: RedisClient,
  keys: DeliveryKeys,
): Promise<ContractSighting | undefined> {
  const f = await redis.hgetall(keys.contractSeen);
  if (!f.sha256) return undefined;
  return {
    sha256: f.sha256,
    source: f.source ?? '',
    ...(f.version ? { version: f.version } : {}),
    validators: validatorsOf(f),
    checkedAt: Number(f.checkedAt ?? 0),
    usage: f.usage ?? '',
    ...(f.text !== undefined ? { text: f.text } : {}),
    breaking: JSON.parse(f.breaking ?? '[]') as StoredChange[],
    nonBreaking: JSON.parse(f.nonBreaking ?? '[]') as StoredChange[],
  };
}

/** Keeps a sighting (its pipelines' `notified:` marks go when the description read changed). */
export async function writeSighting(
  redis: RedisClient,
  keys: DeliveryKeys,
  seen: ContractSighting,
  replaced: boolean,
): Promise<void> {
  const fields: Record<string, string | number> = {
    sha256: seen.sha256,
    source: seen.source,
    checkedAt: seen.checkedAt,
    usage: seen.usage,
    breaking: JSON.stringify(seen.breaking),
    nonBreaking: JSON.stringify(seen.nonBreaking),
    ...(seen.version ? { version: seen.version } : {}),
    ...(seen.text !== undefined ? { text: seen.text } : {}),
    ...validatorFields(seen.validators),
  };
  const multi = redis.multi();
  if (replaced) multi.del(keys.contractSeen);
  else multi.hdel(keys.contractSeen, 'etag', 'lastModified', 'text');
  await multi.hset(keys.contractSeen, fields).exec();
}

/** True the first time a pipeline is told of the description now seen (contract_changed). */
export async function firstNotice(
  redis: RedisClient,
  keys: DeliveryKeys,
  pipeline: string,
): Promise<boolean> {
  return (await redis.hsetnx(keys.contractSeen, `notified:${pipeline}`, Date.now())) === 1;
}

/** What the console and /metrics show: the changes not accepted yet, with the hashes. */
export interface PendingContract {
  pinned: string;
  seen: string;
  checkedAt: number;
  breaking: number;
  nonBreaking: number;
}

export async function pendingContract(
  redis: RedisClient,
  keys: DeliveryKeys,
): Promise<PendingContract | undefined> {
  const [pinned, seen] = await Promise.all([
    redis.hget(keys.contractPin, 'sha256'),
    redis.hmget(keys.contractSeen, 'sha256', 'checkedAt', 'breaking', 'nonBreaking'),
  ]);
  const [sha256, checkedAt, breaking, nonBreaking] = seen;
  if (!pinned || !sha256 || sha256 === pinned) return undefined;
  return {
    pinned,
    seen: sha256,
    checkedAt: Number(checkedAt ?? 0),
    breaking: (JSON.parse(breaking ?? '[]') as unknown[]).length,
    nonBreaking: (JSON.parse(nonBreaking ?? '[]') as unknown[]).length,
  };
}
