/**
 * A lookup as mapping uses it: a field's value -> another value. Inline tables come from the
 * pipeline file; file lookups are read before a plan (load-lookup-files.ts).
 */
export interface LookupTable {
  readonly map: ReadonlyMap<string, string>;
  /** Names the table in a miss: `lookup productNames (ProductTexts.csv)`. */
  readonly label: string;
  /** Inline tables list some of their values in a miss, to show what was expected. */
  readonly inline: boolean;
  /**
   * What the mapping of an entity using the table depends on (entity-inputs.ts): the inline table
   * itself, or a file lookup's spec and a digest of what was read, so that a changed text table
   * re-maps the records and plans exactly the entities whose values changed.
   */
  readonly identity: unknown;
}

export function inlineTable(name: string, table: Readonly<Record<string, string>>): LookupTable {
  return {
    map: new Map(Object.entries(table)),
    label: `lookup ${name}`,
    inline: true,
    identity: table,
  };
}

/** What the pipeline's lookups contribute to an entity's mapping signature. */
export function lookupIdentities(tables: Readonly<Record<string, LookupTable>>): unknown {
  return Object.fromEntries(Object.entries(tables).map(([name, t]) => [name, t.identity]));
}
