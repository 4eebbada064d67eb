/**
 * Pinning the platform's description (`ferry interface pull` / `accept`) and comparing one with
 * the pin (`ferry interface diff`): docs/INTERFACE.md, Pinning the description. The pin keeps the
 * text, its sha256, where it came from (and a URL's ETag/Last-Modified), when and by whom.
 */
import { loadDescription } from '../interface/index.js';
import { installationUsage } from '../pipeline/index.js';
import { type ContractPin, type StoredChange, readPin, writePin } from '../runs/index.js';
import { classifyAgainstPin, type ContractContext, pinKeys } from './check-contract.js';

export interface ContractSide {
  sha256: string;
  version: string | null;
  source: string;
}

export interface ContractComparison {
  from: ContractSide;
  to: ContractSide;
  breaking: StoredChange[];
  nonBreaking: StoredChange[];
}

const sideOf = (d: { sha256: string; version?: string; source: string }): ContractSide => ({
  sha256: d.sha256,
  version: d.version ?? null,
  source: d.source,
});

/** The pin against the description at `source`; undefined when nothing is pinned. */
export async function compareWithPin(
  ctx: ContractContext,
  source: string,
): Promise<ContractComparison | undefined> {
  const pin = await readPin(ctx.redis, pinKeys(ctx));
  if (!pin) return undefined;
  const now = await loadDescription(source);
  const changes =
    now.sha256 === pin.sha256
      ? { breaking: [], nonBreaking: [] }
      : await classifyAgainstPin(pin, source, now.text, installationUsage(ctx.config));
  return {
    from: sideOf(pin),
    to: sideOf(now),
    breaking: changes.breaking,
    nonBreaking: changes.nonBreaking,
  };
}

export interface PinOutcome {
  /** What is (or, for a dry run, would be) pinned. */
  pin: Omit<ContractPin, 'text'>;
  /** What was pinned before, and how the new one differs from it. */
  previous: ContractComparison | null;
  dryRun: boolean;
  /** False for a dry run, and when a pin exists that differs and `replace` was not asked. */
  written: boolean;
}

/**
 * Reads the description at `source` and pins it. A pin that differs is replaced only with
 * `replace` (`ferry interface accept`): `pull` never drops an accepted contract silently.
 */
export async function pinContract(
  ctx: ContractContext,
  options: { source: string; by: string; dryRun: boolean; replace: boolean },
): Promise<PinOutcome> {
  const description = await loadDescription(options.source);
  const shown: Omit<ContractPin, 'text'> = {
    sha256: description.sha256,
    source: options.source,
    ...(description.version ? { version: description.version } : {}),
    ...(description.title ? { title: description.title } : {}),
    validators: description.validators,
    pulledAt: Date.now(),
    pulledBy: options.by,
  };
  const pin: ContractPin = { ...shown, text: description.text };
  const before = await readPin(ctx.redis, pinKeys(ctx));
  let previous: ContractComparison | null = null;
  if (before) {
    const changes =
      before.sha256 === pin.sha256
        ? { breaking: [], nonBreaking: [] }
        : await classifyAgainstPin(before, options.source, pin.text, installationUsage(ctx.config));
    previous = {
      from: sideOf(before),
      to: sideOf(pin),
      breaking: changes.breaking,
      nonBreaking: changes.nonBreaking,
    };
  }
  const allowed = !before || before.sha256 === pin.sha256 || options.replace;
  const written = allowed && !options.dryRun;
  if (written) await writePin(ctx.redis, pinKeys(ctx), pin);
  return { pin: shown, previous, dryRun: options.dryRun, written };
}
