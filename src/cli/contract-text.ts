/** What `ferry interface pull`, `diff` and `accept` share: the source and the diff's text. */
import type { FerryConfig } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import type { ContractComparison, PinOutcome } from '../orchestrate/index.js';

export async function contractSource(config: FerryConfig, given?: string): Promise<string> {
  const source = given ?? config.interface.openapi;
  if (!source) {
    // Loaded here: a command's module loads no config schema (test/cli/lazy-commands.test.ts).
    const { descriptionSetting } = await import('../config/index.js');
    throw new UsageError(
      `No description configured: set ${descriptionSetting(config)} to the platform's OpenAPI file or URL.`,
    );
  }
  return source;
}

const short = (sha: string) => sha.slice(0, 12);

export function comparisonText(diff: ContractComparison): string {
  const side = (s: ContractComparison['from']) =>
    `${short(s.sha256)}${s.version ? ` (version ${s.version})` : ''} ${s.source}`;
  const lines = [`Pinned: ${side(diff.from)}`, `Now:    ${side(diff.to)}`];
  if (diff.from.sha256 === diff.to.sha256) {
    lines.push('No change: the description is the one pinned.');
    return `${lines.join('\n')}\n`;
  }
  lines.push('', `${diff.breaking.length} breaking change(s):`);
  for (const c of diff.breaking) lines.push(`  ${c.kind} ${c.path}`, `    ${c.message}`);
  lines.push('', `${diff.nonBreaking.length} other change(s):`);
  for (const c of diff.nonBreaking) lines.push(`  ${c.kind} ${c.path}`, `    ${c.message}`);
  lines.push(
    '',
    diff.breaking.length > 0
      ? 'Runs that use these operations are refused until the pipelines or bindings are adapted and `ferry interface accept` pins the new description.'
      : 'Runs go on; `ferry interface accept` pins the new description.',
  );
  return `${lines.join('\n')}\n`;
}

export function pinText(outcome: PinOutcome): string {
  const { pin, previous } = outcome;
  const what = `${short(pin.sha256)}${pin.version ? ` (version ${pin.version})` : ''} from ${pin.source}`;
  const validators = [
    pin.validators.etag && `ETag ${pin.validators.etag}`,
    pin.validators.lastModified && `Last-Modified ${pin.validators.lastModified}`,
  ].filter(Boolean);
  const lines: string[] = [];
  if (outcome.written)
    lines.push(`Pinned ${what}${validators.length ? ` (${validators.join(', ')})` : ''}.`);
  else if (outcome.dryRun) lines.push(`Would pin ${what}. Nothing was changed.`);
  else lines.push(`Not pinned: ${what} differs from the pinned description.`);
  if (previous && previous.from.sha256 !== pin.sha256) {
    lines.push(
      `It replaces ${short(previous.from.sha256)}${previous.from.version ? ` (version ${previous.from.version})` : ''}: ` +
        `${previous.breaking.length} breaking and ${previous.nonBreaking.length} other change(s) (\`ferry interface diff\` names them).`,
    );
  } else if (previous) lines.push('It is the description pinned already.');
  if (!outcome.written && !outcome.dryRun) {
    lines.push('See `ferry interface diff`, then `ferry interface accept` to pin it.');
  }
  return `${lines.join('\n')}\n`;
}
