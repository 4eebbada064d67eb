/**
 * Which description of the platform a job is sent by: the one its run was planned by (its
 * `descriptionSha`, the text kept by runs/contract/run-description.ts), whatever this worker read
 * at start. Its bodies were built by that description's bindings, and its path, envelope and auth
 * must be too: without a pin the live description may have changed between the worker's start and
 * the run, and a pin accepted while a run goes on applies to the runs planned after it.
 * One HGET per job; a description's config, bindings and client are built once per worker.
 */
import type { FerryConfig } from '../../config/index.js';
import { configFromText, resolveBindings, type InterfaceClient } from '../../interface/index.js';
import type { Logger } from '../../logging/index.js';
import { readRunDescription } from '../../runs/index.js';
import type { DeliveryDeps } from './delivery-deps.js';

export interface RunContractsOptions {
  /** The worker's own deps, by the description it read at start. */
  deps: DeliveryDeps;
  /** The config as given to the worker: a kept description's bindings are merged into its own. */
  given: FerryConfig;
  clientFor: (config: FerryConfig) => InterfaceClient;
  logger: Logger;
}

/** The deps to deliver a job of run `runId` with. */
export type RunContracts = (runId: string) => Promise<DeliveryDeps>;

export function createRunContracts(options: RunContractsOptions): RunContracts {
  const { deps, given, clientFor, logger } = options;
  const bySha = new Map<string, Promise<DeliveryDeps>>();

  const build = async (runId: string, sha: string): Promise<DeliveryDeps> => {
    const kept = await readRunDescription(deps.redis, deps.keys, sha);
    if (!kept) {
      // Kept as long as a finished run's record: only a hand-deleted key lands here.
      logger.error(
        { runId, descriptionSha: sha },
        'the description this run was planned by is no longer in Redis: its jobs go by the ' +
          "worker's own, and what the platform refuses becomes dead letters",
      );
      return deps;
    }
    const config = await configFromText(given, kept);
    logger.info({ runId, descriptionSha: sha }, "delivering by the run's own description");
    return {
      ...deps,
      config,
      bindings: resolveBindings(config.interface.bindings),
      client: clientFor(config),
    };
  };

  return async (runId) => {
    const sha = await deps.redis.hget(deps.keys.run(runId), 'descriptionSha');
    // A run recorded before runs kept their description goes by the worker's.
    if (sha === null || sha === deps.config.contract?.sha256) return deps;
    let found = bySha.get(sha);
    if (!found) {
      found = build(runId, sha);
      found.catch(() => bySha.delete(sha)); // Redis failed: the job's retry reads it again
      bySha.set(sha, found);
    }
    return found;
  };
}
