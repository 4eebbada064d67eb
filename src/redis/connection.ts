import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../logging/index.js';

/** A connection to one Redis (standalone or through Sentinel) or to a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/** Where Ferry's Redis is: config's `redis` section (docs/CONFIGURATION.md), or a plain URL. */
export interface RedisTarget {
  url: string;
  mode?: 'standalone' | 'cluster' | 'sentinel';
  /** Cluster: seed nodes besides `url` (the others are discovered). */
  nodes?: readonly string[];
  /** Sentinel: the sentinels' `host:port`. */
  sentinels?: readonly string[];
  /** Sentinel: the monitored master's name. */
  name?: string;
}

/** What a URL says besides the host: credentials, database, TLS. */
function urlOptions(url: URL): RedisOptions {
  const options: RedisOptions = {};
  if (url.username) options.username = decodeURIComponent(url.username);
  if (url.password) options.password = decodeURIComponent(url.password);
  const db = Number(url.pathname.slice(1));
  if (db) options.db = db;
  if (url.protocol === 'rediss:') options.tls = {};
  return options;
}

function hostPort(address: string): { host: string; port: number } {
  const url = new URL(address.includes('://') ? address : `redis://${address}`);
  return { host: url.hostname, port: Number(url.port || '6379') };
}

/**
 * A Redis connection for Ferry. `maxRetriesPerRequest: null` is what BullMQ workers need (a command
 * waits for a reconnect instead of failing). The URL may carry a password: never log it.
 *
 * On a cluster every multi-key command and script of Ferry's touches keys of one hash tag (see
 * src/runs/keys.ts and src/state/state-format.ts), so the same code runs on both.
 */
export function createRedis(target: string | RedisTarget, options: RedisOptions = {}): RedisClient {
  const client = openClient(target, options);
  // Failures reach the caller through the commands that fail (and wait-for-redis.ts logs the
  // connection's ups and downs): without a listener ioredis prints a stack per failed attempt.
  client.on('error', () => undefined);
  return client;
}

/** Reconnect delays: 100 ms doubling to at most 2 s, for as long as the process lives. */
export function reconnectDelay(attempt: number): number {
  return Math.min(100 * 2 ** Math.min(attempt - 1, 5), MAX_RECONNECT_MS);
}
const MAX_RECONNECT_MS = 2_000;

function openClient(target: string | RedisTarget, options: RedisOptions): RedisClient {
  const t = typeof target === 'string' ? { url: target } : target;
  const merged: RedisOptions = {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    retryStrategy: reconnectDelay,
    ...options,
  };
  const url = new URL(t.url);
  switch (t.mode ?? 'standalone') {
    case 'standalone':
      return new Redis(t.url, merged);
    case 'sentinel':
      return new Redis({
        ...merged,
        ...urlOptions(url),
        sentinels: (t.sentinels ?? []).map(hostPort),
        name: t.name ?? '',
      });
    case 'cluster': {
      // Cluster-wide options sit on the Cluster; the rest applies to each node's connection.
      const { lazyConnect, retryStrategy, enableReadyCheck, ...node } = merged;
      return new Cluster([t.url, ...(t.nodes ?? [])].map(hostPort), {
        lazyConnect,
        enableReadyCheck,
        clusterRetryStrategy: retryStrategy,
        redisOptions: { ...node, ...urlOptions(url) },
      });
    }
  }
}

/** Each master of a cluster, or the one Redis (for commands that act on one node: SCAN, CONFIG). */
export async function masters(redis: RedisClient): Promise<Redis[]> {
  if (!(redis instanceof Cluster)) return [redis];
  await redis.ping(); // connects, and waits for the slots (hence the nodes) to be known
  return redis.nodes('master');
}

/**
 * A queue loses jobs when Redis evicts keys. Warns, with what to set, when a server's
 * maxmemory-policy is anything but noeviction (on a cluster: any master's). Returns the policy.
 */
export async function warnIfEvicting(
  redis: RedisClient,
  logger: Logger,
): Promise<string | undefined> {
  let found: string | undefined;
  for (const node of await masters(redis)) {
    try {
      const reply = (await node.config('GET', 'maxmemory-policy')) as string[];
      const policy = reply[1];
      found ??= policy;
      if (policy && policy !== 'noeviction') {
        logger.warn(
          { maxmemoryPolicy: policy },
          'Redis may evict keys (maxmemory-policy is not noeviction): queued jobs and sync state can be lost. ' +
            'Set maxmemory-policy noeviction on this Redis.',
        );
        return policy;
      }
    } catch {
      // CONFIG may be disabled on managed Redis; nothing to check then.
    }
  }
  return found;
}

/**
 * Another connection to the same Redis whose every command fails past `ms` (a deadline for the
 * console's reads: a paused or stalled Redis answers 503 in time instead of holding the page).
 */
export function withCommandTimeout(redis: RedisClient, ms: number): RedisClient {
  const copy =
    redis instanceof Cluster
      ? redis.duplicate(undefined, {
          redisOptions: { ...redis.options.redisOptions, commandTimeout: ms },
        })
      : redis.duplicate({ commandTimeout: ms });
  copy.on('error', () => undefined);
  return copy;
}
