/**
 * `ferry reconcile`'s check: for each resource of the pipeline that the platform lists, what it
 * holds against the pipeline's committed state (compare-resource.ts), then the fields of the
 * entities that differ (field-detail.ts), with every entity that drifted written to a CSV under
 * delivery.reportsDir. The drift stays in Redis (keys.ts) for a repair until the caller drops
 * it.
 */
import { join, resolve } from 'node:path';
import type { FerryConfig } from '../config/index.js';
import { isFerryError } from '../errors/index.js';
import type { InterfaceClient } from '../interface/index.js';
import type { PipelineDefinition, SourceSpec } from '../pipeline/index.js';
import type { RedisClient } from '../redis/index.js';
import { resourcesToCheck, type ResourcePlan } from './checked-resources.js';
import { compareResource, type ResourceCounts } from './compare-resource.js';
import { DriftReport, type DriftSample } from './drift-report.js';
import { detailFromSource, reportDifferent } from './field-detail.js';
import type { DriftRow } from './drift-entry.js';
import { dropWork, workKeys, type WorkKeys } from './keys.js';

export interface CheckOptions {
  config: FerryConfig;
  redis: RedisClient;
  client: InterfaceClient;
  definition: PipelineDefinition;
  pageSize: number;
  /** The source to name differing fields by (default: the pipeline's own). */
  source?: SourceSpec;
  lookupFiles?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

export interface DriftCheck {
  pipeline: string;
  checked: number;
  missing: number;
  different: number;
  unknown: number;
  samples: DriftSample[];
  resources: ResourceCounts[];
  unchecked: ResourcePlan['unchecked'];
  /** The CSV of differences (absent when nothing drifted). */
  csv?: string;
  /** Requests made to read the listings. */
  requests: number;
  /** The source read for the fields of different entities, or why it could not be. */
  source?: { rows: number; rejected: number } | { error: string };
  startedAt: number;
  seconds: number;
  /** The working sets in Redis (drop them with dropWork when done). */
  work: WorkKeys;
  plan: ResourcePlan;
}

function stamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, '').slice(0, 15);
}

export function sum(list: readonly ResourceCounts[], field: keyof ResourceCounts): number {
  return list.reduce((n, c) => n + Number(c[field]), 0);
}

export async function checkPipeline(options: CheckOptions): Promise<DriftCheck> {
  const { config, redis, definition } = options;
  const started = Date.now();
  const plan = resourcesToCheck(definition, config.interface.listing, config.contract);
  const work = workKeys(config.redis.prefix, definition.name);
  const path = join(
    resolve(config.delivery.reportsDir),
    `reconcile-${definition.name}-${stamp(new Date(started))}.csv`,
  );
  const report = new DriftReport(path);
  let requests = 0;
  const onRow = (row: DriftRow) => report.add(row);
  try {
    const resources: ResourceCounts[] = [];
    for (const resource of plan.checked) {
      const ctx = {
        redis,
        prefix: config.redis.prefix,
        pipeline: definition.name,
        work,
        onRow,
        reader: {
          client: options.client,
          delivery: config.delivery,
          pageSize: options.pageSize,
          onRequest: () => (requests += 1),
          ...(options.signal ? { signal: options.signal } : {}),
        },
      };
      resources.push(await compareResource(ctx, resource));
    }
    const check: DriftCheck = {
      pipeline: definition.name,
      checked: sum(resources, 'checked'),
      missing: sum(resources, 'missing'),
      different: sum(resources, 'different'),
      unknown: sum(resources, 'unknown'),
      samples: [],
      resources,
      unchecked: plan.unchecked,
      requests,
      startedAt: started,
      seconds: 0,
      work,
      plan,
    };
    if (check.different > 0) {
      check.source = await detailFromSource(
        {
          definition,
          config,
          redis,
          ...(options.source ? { source: options.source } : {}),
          ...(options.lookupFiles ? { lookupFiles: options.lookupFiles } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        },
        work,
        plan.checked,
      ).catch((error: unknown) => {
        // Without the source, the fields are those state's field hashes name (or none).
        if (!isFerryError(error) || options.signal?.aborted) throw error;
        return { error: error.message };
      });
      for (const r of resources) {
        if (r.different > 0) await reportDifferent(redis, work, r.resource, onRow);
      }
    }
    const csv = await report.close();
    if (csv) check.csv = csv;
    check.samples = report.samples();
    check.requests = requests;
    check.seconds = (Date.now() - started) / 1000;
    return check;
  } catch (error) {
    report.discard();
    await dropWork(
      redis,
      work,
      plan.checked.map((r) => r.resource),
    );
    throw error;
  }
}
