/**
 * Redis memory of the payload history: `node --import tsx bench/before-images.ts [N=20000]`.
 * Plans an N-row items.csv (bench/generate-items.ts) with the catalog pipeline and records every
 * planned item as delivered (what delivery does once the platform confirms it), then a night where
 * 5% of the prices change. Measures, with MEMORY USAGE of each hash, the bytes per entity of the
 * payloads last delivered and the bytes per before-image, for each encoding (JSON; deflate where
 * it saves an eighth, what Ferry keeps; brotli, for comparison), and extrapolates to a 1M-entity
 * catalog with 5% nightly change kept 14 days. Prints one JSON line per encoding.
 * Needs a Redis (REDIS_URL); the keys it wrote are deleted at the end.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { Redis } from 'ioredis';
import { loadConfig, PROJECT_ROOT } from '../src/config/load-config.js';
import { loadPipeline } from '../src/pipeline/definition/load-pipeline.js';
import { beforeImagesKey, payloadKey } from '../src/state/keys.js';
import { encodePayload } from '../src/state/before-images/payload-codec.js';
import { planPipeline } from '../src/pipeline/plan-pipeline.js';
import type { DeliveryItem } from '../src/pipeline/types.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';
import { generateItems } from './generate-items.js';

const rows = Number(process.argv[2] ?? 20_000);
const { config } = loadConfig();
const redis = new Redis(config.redis.url);
const prefix = `bench-history-${process.pid}`;
const file = resolve(PROJECT_ROOT, `.bench-data/items-${rows}.csv`);
if (!existsSync(file)) await generateItems(rows, file);

const definition = loadPipeline('catalog', config);
const plan = await planPipeline({
  definition,
  sourceOverride: { file },
  redis,
  config,
  prefix,
  version: 1,
});
const items: DeliveryItem[] = plan.stages.flatMap((s) => s.requests.flatMap((r) => r.items));
const prices = items.filter((i) => i.resource === 'prices');

async function hashBytes(key: string): Promise<number> {
  return Number((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
}

type Encoder = (version: number, payload: unknown) => Buffer | string;
const encoders: Record<string, Encoder> = {
  json: (version, payload) => `${version}|j${JSON.stringify(payload)}`,
  deflate: encodePayload,
  brotli: (version, payload) =>
    Buffer.concat([
      Buffer.from(`${version}|b`),
      brotliCompressSync(JSON.stringify(payload), {
        params: { [constants.BROTLI_PARAM_QUALITY]: 5 },
      }),
    ]),
};

try {
  for (const [name, encode] of Object.entries(encoders)) {
    const resources = [...new Set(items.map((i) => i.resource))];
    let payloadBytes = 0;
    const started = process.hrtime.bigint();
    for (const resource of resources) {
      const key = payloadKey(prefix, name, resource);
      const list = items.filter((i) => i.resource === resource);
      for (let i = 0; i < list.length; i += 1_000) {
        const args = list.slice(i, i + 1_000).flatMap((it) => [it.key, encode(1, it.payload)]);
        await redis.hset(key, ...args);
      }
      payloadBytes += await hashBytes(key);
    }
    const encodeMs = Number(process.hrtime.bigint() - started) / 1e6;
    // Night two: 5% of the prices change; each change keeps what it replaced.
    const changed = prices.filter((_, i) => i % 20 === 0);
    const imagesKey = beforeImagesKey(prefix, name, 'run-2');
    for (let i = 0; i < changed.length; i += 1_000) {
      const args = changed
        .slice(i, i + 1_000)
        .flatMap((it) => [
          `prices\n${it.key}`,
          Buffer.concat([Buffer.from('u|1|'), Buffer.from(encode(1, it.payload))]),
        ]);
      await redis.hset(imagesKey, ...args);
    }
    const imageBytes = (await hashBytes(imagesKey)) / changed.length;
    const perEntity = payloadBytes / items.length;
    const catalogMb = (perEntity * 1_000_000) / 1e6;
    const imagesMb = (imageBytes * 50_000 * 14) / 1e6;
    console.log(
      JSON.stringify({
        encoding: name,
        rows,
        entities: items.length,
        payloadBytesPerEntity: Math.round(perEntity),
        beforeImageBytesPerChange: Math.round(imageBytes),
        encodeMs: Math.round(encodeMs),
        million: {
          lastDeliveredMb: Math.round(catalogMb),
          beforeImages14NightsMb: Math.round(imagesMb),
          totalMb: Math.round(catalogMb + imagesMb),
        },
      }),
    );
  }
} finally {
  await deleteKeysUnder(redis, prefix);
  redis.disconnect();
}
