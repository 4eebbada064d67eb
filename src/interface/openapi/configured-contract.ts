/**
 * The config a process plans and sends with when `interface.openapi` names the platform's
 * description: its bindings come from the description where it says, and from
 * `interface.bindings` where the config file sets them; the description itself rides along
 * (`config.contract`) so that the payloads are checked against the same one. Which description
 * (the pinned one or the one read now) is decided in src/runs/contract/contracted-config.ts.
 * Without a description the config is returned as it is.
 */
import type { ContractInUse, FerryConfig } from '../../config/index.js';
import { withDescribedBindings } from './contract-bindings.js';
import { describedBindings } from './described-bindings.js';
import { describedOperations } from './described-operations.js';
import { describe, loadDescription, type Description } from './load-description.js';
import { matchCatalog } from './match-catalog.js';
import { OperationNotDescribedError } from '../operation-errors.js';

/** The last descriptions parsed, by sha256: a run per minute must not dereference it each time. */
const parsed = new Map<string, Promise<Description>>();
const PARSED_KEPT = 4;

function remember(key: string, description: Promise<Description>): Promise<Description> {
  description.catch(() => parsed.delete(key));
  parsed.set(key, description);
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value as string);
  return description;
}

function describeOnce(source: string, sha256: string, text: string): Promise<Description> {
  const key = `${sha256} ${source}`;
  return parsed.get(key) ?? remember(key, describe(source, text));
}

/** The config with `description`'s bindings, `from` saying whether it is the pinned one. */
export function configFromDescription(
  config: FerryConfig,
  description: Description,
  from: ContractInUse['from'] = 'live',
): FerryConfig {
  // A config that carries a contract already has a description's bindings merged in: start again
  // from what the config file set.
  const configured = config.contract?.configured ?? config.interface.bindings;
  const base = { ...config, interface: { ...config.interface, bindings: configured } };
  const match = matchCatalog(describedOperations(description.doc));
  const { source, sha256, text } = description;
  return {
    ...withDescribedBindings(base, describedBindings(match)),
    contract: { from, source, sha256, text, configured, operations: [...match.matched.keys()] },
  };
}

/** A read the config's description lacks is refused by name (exit 2) before anything is sent. */
export function checkDescribedRead(config: FerryConfig, operationId: string): void {
  const contract = config.contract;
  if (contract?.operations && !contract.operations.includes(operationId)) {
    throw new OperationNotDescribedError(operationId, contract.source);
  }
}

/** The config with the bindings of the description whose text is `text` (a pin's). */
export async function configFromText(
  config: FerryConfig,
  contract: Omit<ContractInUse, 'configured'>,
): Promise<FerryConfig> {
  const description = await describeOnce(contract.source, contract.sha256, contract.text);
  return configFromDescription(config, description, contract.from);
}

/** The config with the bindings of `interface.openapi` as read now (`signal` stops the read). */
export async function configWithContract(
  config: FerryConfig,
  signal?: AbortSignal,
): Promise<FerryConfig> {
  const source = config.interface.openapi;
  if (!source) return config;
  const description = await loadDescription(source, signal ? { signal } : {});
  void remember(`${description.sha256} ${source}`, Promise.resolve(description));
  return configFromDescription(config, description);
}

/** The description a config plans by: the one it carries, else interface.openapi read now. */
export async function descriptionOf(config: FerryConfig): Promise<Description | undefined> {
  const contract = config.contract;
  if (contract) return describeOnce(contract.source, contract.sha256, contract.text);
  const source = config.interface.openapi;
  return source ? loadDescription(source) : undefined;
}
