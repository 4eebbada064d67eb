/**
 * The text of a drafted pipeline file (`ferry pipeline new`): the source, the entity, its key
 * (with `when` and `duplicates` where the sample asks for them) and its fields grouped into
 * objects and arrays of objects as the description nests them, a TODO saying why for each
 * required property nothing fits.
 */
import { typesOf, type Operation } from '../../interface/index.js';
import { nameScore, RESOURCE_SUBJECT, subjectOf } from './column-names.js';
import { q, type Mapped, type Target } from './draft-targets.js';
import type { ColumnProfile } from './sample-profile.js';

export interface NewPipeline {
  text: string;
  matched: { property: string; column: string }[];
  /** Required properties no column fits (a TODO each, saying why). */
  todo: string[];
  /** Optional properties no column fits (left out). */
  unmapped: string[];
}

/** What the draft is written for: the operation, the sample profiled and how it is read. */
export interface DraftOptions {
  operation: Operation;
  profiles: readonly ColumnProfile[];
  sample: string;
  connector: string;
  sourceOptions: Record<string, string>;
}

/** Why nothing fits `target`: its best-named column, and what keeps it out. */
function whyNot(
  target: Target,
  columns: readonly ColumnProfile[],
  taken: Map<string, string>,
): string {
  const types = typesOf(target.schema).join(' or ') || 'any';
  const named = columns
    .map((c) => ({ c, score: nameScore(target.tokens.at(-1)!, c.name).score }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)[0]?.c;
  if (!named) return `${types}: no column of the sample is named like it`;
  const user = taken.get(named.name);
  if (user) return `${types}: its closest column ${q(named.name)} feeds ${user}`;
  if (named.kind === 'empty') return `${types}: ${q(named.name)} is empty throughout the sample`;
  if (named.kind === 'decimal' && types.includes('integer')) {
    return `${types}: ${q(named.name)} holds decimals; an integer amount is in minor units: give the field minorUnits: {column: CURRENCY_COLUMN} or {code: NOK}`;
  }
  return `${types}: ${q(named.name)} holds ${named.kind} values that do not fit it`;
}

/** One line of the fields block at `depth` (2 spaces each). */
const at = (depth: number, text: string) => `${'  '.repeat(depth)}${text}`;

export function writeDraft(
  options: DraftOptions,
  targets: readonly Target[],
  mapped: ReadonlyMap<number, Mapped>,
  profiles: readonly ColumnProfile[],
  taken: Map<string, string>,
): NewPipeline {
  const { operation } = options;
  const matched: NewPipeline['matched'] = [];
  const todo: string[] = [];
  const unmapped: string[] = [];
  const lines = [
    `# Written by \`ferry pipeline new\` for ${operation.id} from the sample ${options.sample}.`,
    '# Check it, map the TODOs, then run `ferry interface check`.',
    'source:',
    `  connector: ${options.connector}`,
    `  file: ${q(options.sample)}`,
  ];
  const opts = Object.entries(options.sourceOptions);
  if (opts.length > 0) lines.push('  options:', ...opts.map(([k, v]) => `    ${k}: ${q(v)}`));
  const kind = operation.kind === 'patch' ? 'patch' : 'upsert';
  lines.push('mode: snapshot', 'entities:', `  - name: ${operation.resource}`);
  lines.push('    operations:', `      ${kind}: ${operation.id}`);
  const key = mapped.get(0);
  if (key) {
    matched.push({ property: targets[0]!.label, column: key.column });
    const profile = profiles.find((p) => p.name === key.column)!;
    if (profile.filled < profile.rows) {
      lines.push(
        `    # ${q(key.column)} is empty on some rows of the sample: only rows that have one give a ${operation.resource} item`,
      );
      lines.push(`    when: { column: ${q(key.column)}, notEmpty: true }`);
    }
    if (profile.distinct < profile.filled) {
      if (subjectOf(key.column).subject === RESOURCE_SUBJECT[operation.resource]) {
        lines.push(
          `    # the sample repeats each ${q(key.column)} on several rows: the first row that names it wins`,
        );
        lines.push('    duplicates: first');
      } else {
        lines.push(
          `    # TODO: ${q(key.column)} repeats in the sample (${profile.distinct} distinct in ${profile.filled} rows): set duplicates: first, or group (docs/PIPELINES.md)`,
        );
      }
    }
    lines.push(`    key: ${q(key.column)}`);
  } else {
    todo.push(targets[0]!.label);
    lines.push(
      `    # TODO: the key (${targets[0]!.label}) fits no column of the sample`,
      '    key: TODO',
    );
  }
  lines.push('    fields:');
  const body = writeFields(targets, mapped, profiles, taken, { matched, todo, unmapped });
  lines.push(...(body.some((l) => !l.trimStart().startsWith('#')) ? body : [...body, at(3, '{}')]));
  return { text: `${lines.join('\n')}\n`, matched, todo, unmapped };
}

/** The fields block: targets grouped by their leading tokens into objects and arrays of objects. */
function writeFields(
  targets: readonly Target[],
  mapped: ReadonlyMap<number, Mapped>,
  profiles: readonly ColumnProfile[],
  taken: Map<string, string>,
  out: Pick<NewPipeline, 'matched' | 'todo' | 'unmapped'>,
): string[] {
  const lines: string[] = [];
  const write = (indices: number[], depth: number, prefix: number) => {
    const groups = new Map<string, number[]>();
    for (const i of indices) {
      const token = targets[i]!.tokens[prefix]!;
      if (!groups.has(token)) groups.set(token, []);
      groups.get(token)!.push(i);
    }
    for (const [token, members] of groups) {
      const leaf = members.length === 1 && targets[members[0]!]!.tokens.length === prefix + 1;
      if (leaf) {
        const i = members[0]!;
        const target = targets[i]!;
        const m = mapped.get(i);
        if (m) {
          out.matched.push({ property: target.label, column: m.column });
          lines.push(at(depth, `${q(token)}: ${m.spec}`));
        } else if (target.required) {
          out.todo.push(target.label);
          lines.push(
            at(depth, `# TODO: required ${q(target.label)} (${whyNot(target, profiles, taken)})`),
          );
        } else out.unmapped.push(target.label);
        continue;
      }
      if (!members.some((i) => mapped.has(i) || targets[i]!.required)) {
        for (const i of members) out.unmapped.push(targets[i]!.label);
        continue;
      }
      const array = targets[members[0]!]!.tokens[prefix + 1] === '[]';
      lines.push(at(depth, `${q(token)}:`));
      if (array) {
        lines.push(at(depth + 1, 'array:'), at(depth + 2, '- object:'));
        write(members, depth + 4, prefix + 2);
      } else {
        lines.push(at(depth + 1, 'object:'));
        write(members, depth + 2, prefix + 1);
      }
    }
  };
  write(targets.map((_, i) => i).slice(1), 3, 0);
  return lines;
}
