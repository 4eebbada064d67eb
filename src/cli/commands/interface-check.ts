import type { FerryConfig } from '../../config/index.js';
import type { InterfaceCheck } from '../../pipeline/index.js';
import { isFerryError, UsageError } from '../../errors/index.js';
import { JSON_OPTION, stringOption, writeJson, type Command } from '../command.js';
import { platformScoped } from '../pipeline-options.js';

/** Which description runs plan and send by (src/runs/contract/contracted-config.ts). */
interface RunsUse {
  from: 'pinned' | 'live';
  /** The pinned description's sha256 (null: live, read again before each run). */
  sha256: string | null;
  pulledAt?: string;
  pulledBy?: string;
}

/** The pin, if Redis answers; null when it does not (the check itself needs no Redis). */
async function runsUse(config: FerryConfig): Promise<RunsUse | null> {
  const { connectState } = await import('../../state/index.js');
  const { deliveryKeys, platformKeys, readPin } = await import('../../runs/index.js');
  let redis;
  try {
    redis = await connectState(config.redis, 'the pinned description is kept there');
  } catch (error) {
    if (isFerryError(error)) return null;
    throw error;
  }
  try {
    const pin = await readPin(
      redis,
      platformKeys(deliveryKeys(config.redis.prefix), config.platform),
    );
    if (!pin) return { from: 'live', sha256: null };
    return {
      from: 'pinned',
      sha256: pin.sha256,
      pulledAt: new Date(pin.pulledAt).toISOString(),
      pulledBy: pin.pulledBy,
    };
  } finally {
    redis.disconnect();
  }
}

function runsUseText(use: RunsUse | null, checked: string, source: string): string {
  if (!use) return 'Runs use: not known (Redis does not answer; the pin is kept there).';
  if (use.from === 'live') {
    return 'Runs use the live description (nothing is pinned): read again before each run.';
  }
  const pin = `Runs use the pinned description (sha256 ${use.sha256!.slice(0, 12)}, pulled ${use.pulledAt} by ${use.pulledBy})`;
  return use.sha256 === checked
    ? `${pin}: this one.`
    : `${pin}, not this one: \`ferry interface diff --to ${source}\` shows what differs, and ` +
        '`ferry interface accept` makes runs use it.';
}

/** The listing line, and what to set where the config's listing is not the description's. */
function listingText(check: InterfaceCheck, configured: string): string[] {
  const matched = check.operations.filter((o) => o.status === 'matched').length;
  const missing = check.operations.length - matched;
  const line = `Listing: ${check.listing ?? 'neither A nor B'}; ${matched} of ${check.operations.length} catalog operations described, ${missing} missing, ${check.extra.length} extra.`;
  if (check.listing === null || check.listing === configured) return [line];
  return [
    line,
    `interface.listing is ${configured}: set it to ${check.listing} (or FERRY_LISTING), else an operation only listing ${check.listing} has is refused.`,
  ];
}

function render(check: InterfaceCheck, use: RunsUse | null, configured: string): string {
  const lines: string[] = [];
  const name = [check.title, check.version && `version ${check.version}`]
    .filter(Boolean)
    .join(', ');
  lines.push(`${check.source}${name ? ` (${name})` : ''}`);
  lines.push(`sha256 ${check.sha256}`);
  const missing = check.operations.filter((o) => o.status === 'missing');
  lines.push(...listingText(check, configured));
  if (missing.length > 0) lines.push(`Missing: ${missing.map((o) => o.operationId).join(', ')}`);
  for (const e of check.extra) lines.push(`Extra: ${e.method} ${e.path}`);
  lines.push('', 'Bindings in use (setting: value [origin]; default origins not shown):');
  for (const b of check.bindings) {
    const shown = (setting: keyof typeof b.origins, value: unknown) =>
      `${setting} ${String(value)}${b.origins[setting] === 'default' ? '' : ` [${b.origins[setting]}]`}`;
    const parts = [shown('path', b.path)];
    const isDelete = b.operationId.endsWith('.delete');
    const byQuery = b.deleteStyle === 'query' || b.deleteStyle === 'csv';
    if (b.body === 'items' || (isDelete && byQuery)) parts.push(shown('maxItems', b.maxItems));
    if (b.envelope) parts.push(shown('envelope', b.envelope));
    if (isDelete) {
      parts.push(
        byQuery
          ? `${shown('deleteStyle', b.deleteStyle)}, ${shown('deleteQueryParam', b.deleteQueryParam)}`
          : shown('deleteStyle', b.deleteStyle),
      );
    }
    if (b.public) parts.push(shown('public', true));
    if (b.scopes) parts.push(shown('scopes', b.scopes.join(' ')));
    if (b.body === 'items') parts.push(shown('keyField', b.keyField));
    lines.push(`  ${b.operationId}: ${parts.join(', ')}`);
  }
  lines.push(runsUseText(use, check.sha256, check.source));
  lines.push('', `Pipelines checked: ${check.pipelines.join(', ') || 'none'}`);
  if (check.problems.length === 0) lines.push('No problems: every pipeline fits the description.');
  else {
    lines.push(`${check.problems.length} problem(s):`);
    for (const p of check.problems) lines.push(`  ${p.code}: ${p.message}`);
  }
  return `${lines.join('\n')}\n`;
}

export const interfaceCheckCommand: Command = {
  name: 'interface check',
  usage: 'interface check [--openapi SRC] [--platform NAME] [--json]',
  description: [
    "Reads the platform's OpenAPI description (--openapi, else interface.openapi / FERRY_OPENAPI):",
    'a file or an http(s) URL, OpenAPI 3.0 or 3.1, JSON or YAML. Matches its operations to the 31 of',
    'the catalog by method and path, says which listing it is, shows the bindings in use and where',
    'each setting came from, and checks every import pipeline against the request schemas and',
    'interface.auth against the security scheme. It says which description runs use: the pinned',
    'one (`ferry interface pull` / `accept`) where there is a pin, else the live one.',
    'With --json: the check, and runsUse: {from: "pinned"|"live", sha256, pulledAt?, pulledBy?}, or',
    'null when Redis does not answer.',
    'Exit codes: 0 no problems; 1 problems found; 2 the description cannot be read or is not OpenAPI',
    '(the message names the source and the JSON pointer), a $ref leads outside it or it exceeds a',
    'budget (docs/INTERFACE.md, Limits), or bad config: a pipeline that does not load',
    '(PIPELINE_INVALID, e.g. a guard naming a field its mapping does not build) is reported and',
    'exits 2; 4 stopped by Ctrl-C or SIGTERM.',
  ].join('\n'),
  options: {
    openapi: { type: 'string', placeholder: 'SRC', description: 'The description: a file or URL.' },
    platform: {
      type: 'string',
      placeholder: 'NAME',
      description: 'The platform whose description this is (docs/PLATFORMS.md). Default: default.',
    },

    ...JSON_OPTION,
  },
  async run({ args, stdout, config: getConfig, stopSignal }) {
    const { loadDescription } = await import('../../interface/index.js');
    const { checkInterface } = await import('../../pipeline/index.js');
    const config = await platformScoped(getConfig(), stringOption(args, 'platform'));
    const source = stringOption(args, 'openapi') ?? config.interface.openapi;
    if (!source) {
      const { descriptionSetting } = await import('../../config/index.js');
      throw new UsageError(
        `No description to check: pass --openapi FILE|URL, or set ${descriptionSetting(config)}.`,
      );
    }
    const check = checkInterface(await loadDescription(source, { signal: stopSignal }), config);
    const use = await runsUse(config);
    if (args.values.json) await writeJson(stdout, { ...check, runsUse: use });
    else stdout.write(render(check, use, config.interface.listing));
    // A pipeline that does not load (a bad key, a guard naming a field no mapping builds) is bad
    // config, as for `ferry config check`, `plan` and `run`.
    if (check.problems.some((p) => p.code === 'PIPELINE_INVALID')) return 2;
    return check.problems.length > 0 ? 1 : 0;
  },
};
