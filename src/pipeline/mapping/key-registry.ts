/**
 * Which keys each entity has seen in this input: repeated keys (an error on the later record),
 * derived entities given once (the first record wins), rows grouped into one entity, and the keys
 * present in the export (deletes by absence spare them, rejected records' keys included).
 * This is what planning holds for the whole input, so entities that take the same key from the
 * same column (a product and its price) share one map.
 */
import type { EntityDefinition } from '../definition/definition-types.js';
import type { SourceRef } from '../../base/index.js';
import { mergePayloads } from './merge-payloads.js';

export interface MappedEntity {
  entity: EntityDefinition;
  key: string;
  /** undefined for a delete. */
  payload: Record<string, unknown> | undefined;
  kind: 'upsert' | 'patch' | 'delete';
  source: SourceRef;
  /** Fingerprint of the source values it was mapped from, when the planner took one. */
  input?: string;
}

export interface GroupedEntity extends MappedEntity {
  lines: number[];
}

/** Entities whose keys may share one map: same key spec, no condition, repeats rejected. */
function sharingSignature(entity: EntityDefinition): string | undefined {
  if (entity.duplicates !== 'error' || entity.mapping.when) return undefined;
  return entity.mapping.keySignature;
}

/**
 * V8 may keep a short piece of a large string as a slice of it: copying a long key keeps the
 * parser's whole chunk of text from living as long as the key does.
 */
function ownString(key: string): string {
  return key.length < 13 ? key : Buffer.from(key, 'utf8').toString('utf8');
}

export class KeyRegistry {
  /** 'error' entities: key -> line of the accepted record that gave it (maps may be shared). */
  private readonly accepted: Map<string, number>[];
  /** 'first' entities: keys given already. */
  private readonly given: Set<string>[];
  private readonly groups: Map<string, GroupedEntity>[];
  /** Keys of rejected records: not in the plan, but not absent from the export either. */
  private readonly spared: Set<string>[];
  private lastMap: Map<string, number> | undefined;
  private lastKey = '';
  private lastLine: number | undefined;

  constructor(entities: readonly EntityDefinition[]) {
    const shared = new Map<string, Map<string, number>>();
    this.accepted = entities.map((e) => {
      const signature = sharingSignature(e);
      if (signature === undefined) return new Map();
      const map = shared.get(signature) ?? new Map<string, number>();
      shared.set(signature, map);
      return map;
    });
    this.given = entities.map(() => new Set());
    this.groups = entities.map(() => new Map());
    this.spared = entities.map(() => new Set());
  }

  /** A derived entity already given by an earlier record: this record need not map it. */
  alreadyGiven(entity: EntityDefinition, key: string): boolean {
    return entity.duplicates === 'first' && (this.given[entity.index] as Set<string>).has(key);
  }

  /** The line of the earlier accepted record with this key, for entities that reject repeats. */
  repeatOf(entity: EntityDefinition, key: string): number | undefined {
    if (entity.duplicates !== 'error') return undefined;
    const map = this.accepted[entity.index] as Map<string, number>;
    // Entities sharing a map ask about the same key one after the other: answer from memory.
    if (map === this.lastMap && key === this.lastKey) return this.lastLine;
    this.lastMap = map;
    this.lastKey = key;
    this.lastLine = map.get(key);
    return this.lastLine;
  }

  /**
   * Records an accepted record's entities; returns those to plan now (groups wait for the end),
   * reusing the array it was given.
   */
  admit(mapped: MappedEntity[]): MappedEntity[] {
    let kept = 0;
    for (const m of mapped) {
      if (m.entity.duplicates !== 'group') {
        this.admitKey(m.entity, m.key, m.source.line);
        mapped[kept++] = m;
        continue;
      }
      const groups = this.groups[m.entity.index] as Map<string, GroupedEntity>;
      const group = groups.get(m.key);
      if (!group) {
        groups.set(ownString(m.key), { ...m, lines: [m.source.line] });
      } else {
        group.lines.push(m.source.line);
        if (m.payload && group.payload) {
          group.payload = mergePayloads(m.entity.mapping, group.payload, m.payload);
        }
      }
    }
    mapped.length = kept;
    return mapped;
  }

  /**
   * Records the key of an accepted record's entity that is not grouped (also for a record the
   * planner did not need to map: its entities are unchanged).
   */
  admitKey(entity: EntityDefinition, key: string, line: number): void {
    const i = entity.index;
    if (entity.duplicates === 'error') {
      const map = this.accepted[i] as Map<string, number>;
      if (map !== this.lastMap || key !== this.lastKey || this.lastLine === undefined) {
        map.set(ownString(key), line);
        this.lastMap = map;
        this.lastKey = key;
        this.lastLine = line;
      }
    } else (this.given[i] as Set<string>).add(ownString(key));
  }

  spare(entity: EntityDefinition, key: string): void {
    (this.spared[entity.index] as Set<string>).add(ownString(key));
  }

  /** Keys only rejected records gave (no accepted record had them): their state was not read. */
  onlySpared(entity: EntityDefinition): string[] {
    const i = entity.index;
    const accepted = this.accepted[i] as Map<string, number>;
    const given = this.given[i] as Set<string>;
    const groups = this.groups[i] as Map<string, GroupedEntity>;
    return [...(this.spared[i] as Set<string>)].filter(
      (key) => !accepted.has(key) && !given.has(key) && !groups.has(key),
    );
  }

  /** Whether the export gave this key for this entity (accepted, grouped or rejected). */
  present(entity: EntityDefinition, key: string): boolean {
    const i = entity.index;
    return (
      (this.accepted[i] as Map<string, number>).has(key) ||
      (this.given[i] as Set<string>).has(key) ||
      (this.groups[i] as Map<string, GroupedEntity>).has(key) ||
      (this.spared[i] as Set<string>).has(key)
    );
  }

  /** Every grouped entity, in the order its first row came. */
  *grouped(): Iterable<GroupedEntity> {
    for (const groups of this.groups) yield* groups.values();
  }
}
