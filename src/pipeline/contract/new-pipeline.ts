/**
 * `ferry pipeline new`: a draft pipeline for one described operation from a profile of a sample
 * export (sample-profile.ts). Each described property (nested objects and the objects of arrays,
 * such as `prices[].amount`, included) is matched to a column by name (exact, folded, synonyms,
 * with the column's subject word set aside: "Item Category Name" is a category's name) and by what
 * the column holds against the property's type, format, pattern, enum and length. A column feeds
 * one property: the pairs are chosen together for the best total (so `Description` and
 * `Description 2` go to name and description, not one to both). A column about another resource
 * ("Category Sort") never feeds this one's property, and where a column is about this resource the
 * others are not used for it (categories are not keyed on the product number). Where nothing fits
 * the draft leaves a TODO that says why, never a guess.
 */
import type { Binding, Schema } from '../../interface/index.js';
import { assignBest } from './assign-best.js';
import { nameScore, RESOURCE_SUBJECT, subjectOf } from './column-names.js';
import { type DraftOptions, type NewPipeline, writeDraft } from './draft-text.js';
import { type Mapped, type Target, targetsOf } from './draft-targets.js';
import { fit, keyFit } from './property-fit.js';
import type { ColumnProfile } from './sample-profile.js';

export type { NewPipeline } from './draft-text.js';

/**
 * Which columns may feed a target. A column about a resource ("Category Sort") feeds only a
 * property about it; an item column ("Item No.") also a property about nothing in particular.
 * A property about a resource other than the item the rows are (a category drawn from item
 * rows) takes only the columns about it, where the sample has any: "No." is the product's.
 */
function allowed(target: Target, column: ColumnProfile, subjects: ReadonlySet<string>): boolean {
  const about = subjectOf(column.name).subject;
  if (about !== undefined)
    return about === target.subject || (about === 'product' && !target.subject);
  const derived = target.subject !== undefined && target.subject !== 'product';
  return !derived || !subjects.has(target.subject!);
}

export function newPipeline(
  options: DraftOptions & {
    binding: Binding;
    /** The schema of one item the operation sends. */
    item: Schema;
  },
): NewPipeline {
  const { operation, binding, item, profiles } = options;
  const resourceSubject = RESOURCE_SUBJECT[operation.resource];
  const keyName = operation.pathParams[0] ?? binding.keyField;
  const targets: Target[] = [
    {
      label: keyName,
      tokens: [keyName],
      schema: { type: 'string' },
      required: true,
      subject: resourceSubject,
      key: true,
    },
  ];
  targetsOf(item, [], resourceSubject, binding.keyField, targets);
  const subjects = new Set(
    profiles.map((c) => subjectOf(c.name).subject).filter((s) => s !== undefined),
  );
  const currencyColumn = profiles.find((c) => c.kind === 'currency')?.name;
  // Score every allowed pair; the assignment takes the best total, one column per property.
  const specs = new Map<string, { spec: string }>();
  const scores = targets.map((target, t) =>
    profiles.map((column, c) => {
      if (!allowed(target, column, subjects)) return 0;
      const name = nameScore(target.key ? keyName : target.tokens.at(-1)!, column.name);
      if (name.score === 0) return 0;
      const fitted = target.key
        ? keyFit(column)
        : fit(target, column, name.negate === true, currencyColumn);
      if (!fitted) return 0;
      specs.set(`${t}:${c}`, fitted);
      return name.score + fitted.bonus;
    }),
  );
  const chosen = assignBest(scores);
  const mapped = new Map<number, Mapped>();
  const taken = new Map<string, string>();
  chosen.forEach((c, t) => {
    if (c === undefined) return;
    const column = profiles[c]!;
    mapped.set(t, { column: column.name, spec: specs.get(`${t}:${c}`)!.spec });
    taken.set(column.name, targets[t]!.label);
  });
  return writeDraft(options, targets, mapped, profiles, taken);
}
