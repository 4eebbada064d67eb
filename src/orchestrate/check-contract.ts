/**
 * Before a run plans (CLI, schedule tick, HTTP import: all through startRun) the platform's
 * description is read again and compared with the pinned one (docs/INTERFACE.md, Pinning the
 * description). A URL is read with If-None-Match / If-Modified-Since: a 304 re-uses what the last
 * read found, parsing nothing. A file is hashed. Only a description that differs from the pin is
 * parsed and classified (for every import pipeline's use, so the console, /metrics and
 * `ferry interface diff` agree); a run is refused by the breaking changes to its own operations.
 * No pin, or no `interface.openapi`: nothing is read, as before pinning existed.
 */
import { canonicalJson, hashParts } from '../base/index.js';
import type { FerryConfig } from '../config/index.js';
import {
  describe as describeText,
  diffContract,
  readSource,
  sha256Of,
  type ContractChange,
  type ContractUsage,
} from '../interface/index.js';
import type { Logger } from '../logging/index.js';
import { installationUsage, pipelineUsage, type PipelineDefinition } from '../pipeline/index.js';
import type { RedisClient } from '../redis/index.js';
import {
  ContractBreakingError,
  type ContractPin,
  type ContractSighting,
  type DeliveryKeys,
  type RunContract,
  type RefusedRun,
  type StoredChange,
  firstNotice,
  notifyContractChanged,
  platformKeys,
  readPin,
  readSighting,
  refuseRun,
  writeSighting,
} from '../runs/index.js';

export interface ContractContext {
  config: FerryConfig;
  redis: RedisClient;
  keys: DeliveryKeys;
  logger: Logger;
}

/** Where the pin of the context's platform is kept (each platform pins its own description). */
export function pinKeys(ctx: ContractContext): DeliveryKeys {
  return platformKeys(ctx.keys, ctx.config.platform);
}

/** The description read now against the pin, classified for the installation's use. */
export interface ContractState {
  pin: ContractPin;
  sighting: ContractSighting;
}

const stored = (c: ContractChange): StoredChange => ({
  kind: c.kind,
  ...(c.operationId ? { operationId: c.operationId } : {}),
  path: c.path,
  message: c.message,
});

/** Classifies `text` (read from `source`) against the pin. */
export async function classifyAgainstPin(
  pin: ContractPin,
  source: string,
  text: string,
  usage: ContractUsage,
): Promise<{ breaking: StoredChange[]; nonBreaking: StoredChange[]; version?: string }> {
  const [from, to] = await Promise.all([
    describeText(pin.source, pin.text),
    describeText(source, text),
  ]);
  const diff = diffContract(from.doc, to.doc, usage);
  return {
    breaking: diff.breaking.map(stored),
    nonBreaking: diff.nonBreaking.map(stored),
    ...(to.version ? { version: to.version } : {}),
  };
}

/** Reads the configured description again and keeps what it found; undefined without a pin. */
export async function readContract(ctx: ContractContext): Promise<ContractState | undefined> {
  const source = ctx.config.interface.openapi;
  if (!source) return undefined;
  const pin = await readPin(ctx.redis, pinKeys(ctx));
  if (!pin) return undefined;
  const last = await readSighting(ctx.redis, pinKeys(ctx));
  const seen = last?.source === source ? last : undefined;
  const validators = seen?.validators ?? (pin.source === source ? pin.validators : {});
  let read = await readSource(source, validators);
  const knownSha = seen?.sha256 ?? pin.sha256;
  const knownText = seen?.text ?? (knownSha === pin.sha256 ? pin.text : undefined);
  if (read.notModified && knownText === undefined) read = await readSource(source);
  const text = read.notModified ? (knownText as string) : read.text;
  const sha256 = read.notModified ? knownSha : sha256Of(text);
  const now = {
    sha256,
    source,
    validators: read.notModified ? validators : read.validators,
    checkedAt: Date.now(),
  };
  let sighting: ContractSighting;
  if (sha256 === pin.sha256) {
    // The pinned description: nothing to classify, so the pipelines are not even loaded.
    sighting = { ...now, usage: '', breaking: [], nonBreaking: [] };
    if (pin.version) sighting.version = pin.version;
  } else {
    const usage = installationUsage(ctx.config);
    const usageHash = hashParts([canonicalJson(usage)]);
    sighting =
      seen?.sha256 === sha256 && seen.usage === usageHash
        ? { ...seen, ...now }
        : {
            ...now,
            usage: usageHash,
            text,
            ...(await classifyAgainstPin(pin, source, text, usage)),
          };
  }
  const fresh = last?.sha256 !== sha256;
  await writeSighting(ctx.redis, pinKeys(ctx), sighting, fresh);
  if (fresh && sha256 !== pin.sha256) {
    ctx.logger.warn(
      {
        pinned: pin.sha256,
        seen: sha256,
        breaking: sighting.breaking.length,
        nonBreaking: sighting.nonBreaking.length,
      },
      "the platform's description changed since it was pinned (ferry interface diff)",
    );
  }
  return { pin, sighting };
}

/** What a run of `definition` records of the contract, and the breaking changes that refuse it. */
export function contractOfRun(
  state: ContractState,
  definition: PipelineDefinition,
): { contract: RunContract; refusing: StoredChange[] } {
  const operations = new Set(Object.keys(pipelineUsage(definition)));
  const refusing = state.sighting.breaking.filter(
    (c) => c.operationId !== undefined && operations.has(c.operationId),
  );
  const { sighting, pin } = state;
  return {
    refusing,
    contract: {
      sha256: sighting.sha256,
      pinned: pin.sha256,
      changed: sighting.sha256 !== pin.sha256,
      breaking: refusing.length,
      nonBreaking: sighting.nonBreaking.length,
      changes: refusing.length > 0 ? refusing : sighting.nonBreaking,
    },
  };
}

/**
 * The gate before a run: the pipeline's webhooks hear of a new description once
 * (`contract_changed`); breaking changes to its operations refuse it (a failed run recorded,
 * FERRY_CONTRACT_BREAKING thrown); otherwise what it saw goes on its record.
 */
export async function gateRun(
  ctx: ContractContext,
  definition: PipelineDefinition,
  run: RefusedRun,
): Promise<RunContract | undefined> {
  const state = await readContract(ctx);
  if (!state) return undefined;
  const { contract, refusing } = contractOfRun(state, definition);
  if (contract.changed && (await firstNotice(ctx.redis, pinKeys(ctx), definition.name))) {
    await notifyContractChanged(ctx, definition.name, contract);
  }
  if (refusing.length > 0) throw await refuseRun(ctx, run, contract);
  return contract;
}

/** `ferry plan`: the same refusal as a run's, nothing recorded or told (a plan sends nothing). */
export async function checkPlanContract(
  ctx: ContractContext,
  definition: PipelineDefinition,
): Promise<void> {
  const state = await readContract(ctx);
  if (!state) return;
  const { contract, refusing } = contractOfRun(state, definition);
  if (refusing.length === 0) return;
  throw new ContractBreakingError({
    pipeline: definition.name,
    pinned: contract.pinned,
    seen: contract.sha256,
    breaking: refusing,
  });
}
