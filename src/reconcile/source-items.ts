/**
 * The entities the pipeline makes of its source, as it would send them: the pipeline planned
 * against a state that is empty (a prefix nothing is written under), so every accepted entity
 * comes out whole, with its content hash, field hashes and input fingerprint, through the same
 * mapping, lookups, groups and checks as a run. Requests are handed over as they are made and
 * not kept; the items go to `onItems` in batches, one batch at a time.
 */
import type { FerryConfig } from '../config/index.js';
import {
  type PipelineDefinition,
  planPipeline,
  type SourceSpec,
  type DeliveryItem,
} from '../pipeline/index.js';
import type { RedisClient } from '../redis/index.js';
import { emptyStatePrefix } from './keys.js';

const BATCH = 2_000;

export interface SourceItemsOptions {
  definition: PipelineDefinition;
  config: FerryConfig;
  redis: RedisClient;
  source?: SourceSpec;
  lookupFiles?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

/** Streams the source's entities to `onItems`; returns the rows read and the records rejected. */
export async function streamSourceItems(
  options: SourceItemsOptions,
  onItems: (items: DeliveryItem[]) => Promise<void>,
): Promise<{ rows: number; rejected: number }> {
  let buffer: DeliveryItem[] = [];
  let chain: Promise<void> = Promise.resolve();
  const flush = (): void => {
    const batch = buffer;
    buffer = [];
    chain = chain.then(() => onItems(batch));
    chain.catch(() => undefined); // awaited below; never an unhandled rejection meanwhile
  };
  try {
    const plan = await planPipeline({
      definition: options.definition,
      ...(options.source ? { sourceOverride: options.source } : {}),
      ...(options.lookupFiles ? { lookupFiles: options.lookupFiles } : {}),
      redis: options.redis,
      config: options.config,
      prefix: emptyStatePrefix(options.config.redis.prefix),
      version: 1,
      onRequest: (_stage, request) => {
        for (const item of request.items) buffer.push(item);
        if (buffer.length >= BATCH) flush();
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (buffer.length > 0) flush();
    await chain;
    return { rows: plan.rows, rejected: plan.errors.length };
  } finally {
    await chain.catch(() => undefined);
  }
}
