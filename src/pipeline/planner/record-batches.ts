/**
 * The planner's path for snapshot pipelines without grouped entities: records go in batches; for
 * each record the keys and input fingerprints of its entities are taken (cheap: no payloads), the
 * batch's state is read (one HMGET per resource, while the previous batch is planned), and then,
 * in input order, a record whose every entity is live in state with the same input fingerprint is
 * counted unchanged without being mapped; any other record is mapped and goes through change
 * detection as usual. An unchanged night thus builds and hashes no payload.
 */
import { countUnchangedInput, detectRecord, type DetectContext } from '../change-detection.js';
import type { EntityDefinition, PipelineDefinition } from '../definition/definition-types.js';
import { mapKey } from '../mapping/compile-entity.js';
import type { FieldIssue } from '../mapping/field-types.js';
import { inputFingerprint } from '../mapping/input-fingerprint.js';
import type { KeyRegistry, MappedEntity } from '../mapping/key-registry.js';
import { mapRecord } from '../mapping/record-mapper.js';
import { stateInputIs, type StateStore } from '../../state/index.js';
import { ReadAhead } from './read-ahead.js';
import type { RowError, SourceRecord } from '../../base/index.js';

/** One record with its entities' keys and input fingerprints, per entity index. */
interface Sighting {
  record: SourceRecord;
  keys: (string | undefined)[];
  inputs: (string | undefined)[];
  /** Every key was made without issues (else the record is mapped, which reports them). */
  clean: boolean;
}

/** A record the source could not read: its error keeps its place among the records' errors. */
interface Unreadable {
  error: RowError;
}

/** Per entity index: the encoded state of each key of the batch (null: none). */
type BatchStates = Map<string, string | null>[];

/** Whether a pipeline plans through this path. */
export function plansByInput(definition: PipelineDefinition): boolean {
  return (
    definition.mode === 'snapshot' &&
    definition.changeType === undefined &&
    definition.entities.every((e) => e.duplicates !== 'group')
  );
}

/**
 * Entities per state read. Smaller than the other path's batches: a batch's records (their fields
 * and all) live until its state arrives, and fewer of them surviving each young-generation GC makes
 * an unchanged night about a quarter cheaper in CPU (docs/BENCHMARKS.md).
 */
const BATCH_ENTITIES = 1_024;

const scratchIssues: FieldIssue[] = [];
const scratchStates: (string | null)[] = [];

export class RecordBatches {
  private readonly ahead = new ReadAhead();
  private batch: (Sighting | Unreadable)[] = [];
  private readonly batchRecords: number;

  constructor(
    private readonly definition: PipelineDefinition,
    private readonly registry: KeyRegistry,
    private readonly store: StateStore,
    private readonly ctx: DetectContext,
    private readonly errors: RowError[],
  ) {
    this.batchRecords = Math.max(1, Math.ceil(BATCH_ENTITIES / definition.entities.length));
  }

  /** Takes one record, or its read error; true when the batch is full (then call flush()). */
  add(item: { record: SourceRecord } | { error: RowError }): boolean {
    this.batch.push('error' in item ? item : this.sight(item.record));
    return this.batch.length >= this.batchRecords;
  }

  /** Plans what is left and waits until every batch is planned. */
  async drain(): Promise<void> {
    await this.flush();
    await this.ahead.drain();
  }

  /** Sends the batch to be planned; waits while the previous one is planned. */
  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const sightings = this.batch;
    this.batch = [];
    await this.ahead.push(this.readStates(sightings), (states) => this.plan(sightings, states));
  }

  private sight(record: SourceRecord): Sighting {
    const fields = record.fields;
    const entities = this.definition.entities;
    const keys: (string | undefined)[] = new Array<string | undefined>(entities.length);
    const inputs: (string | undefined)[] = new Array<string | undefined>(entities.length);
    scratchIssues.length = 0;
    for (let i = 0; i < entities.length; i++) {
      const entity = entities[i] as EntityDefinition;
      const when = entity.mapping.when;
      if (when && !when(fields)) continue;
      const key = mapKey(entity.mapping, fields, scratchIssues);
      keys[i] = key;
      // A derived entity given by an earlier record is not planned again: no fingerprint needed.
      if (key !== undefined && !this.registry.alreadyGiven(entity, key)) {
        inputs[i] = inputFingerprint(entity.mapping.inputs, fields);
      }
    }
    return { record, keys, inputs, clean: scratchIssues.length === 0 };
  }

  private async readStates(sightings: readonly (Sighting | Unreadable)[]): Promise<BatchStates> {
    const entities = this.definition.entities;
    const states: BatchStates = entities.map(() => new Map());
    for (const s of sightings) {
      if ('error' in s) continue;
      for (let i = 0; i < entities.length; i++) {
        const key = s.keys[i];
        if (key === undefined) continue;
        // A derived entity given by an earlier batch is not planned again: no need for its state.
        if (!this.registry.alreadyGiven(entities[i] as EntityDefinition, key)) {
          (states[i] as Map<string, string | null>).set(key, null);
        }
      }
    }
    await Promise.all(
      entities.map(async (entity, i) => {
        const map = states[i] as Map<string, string | null>;
        if (map.size === 0) return;
        const keys = [...map.keys()];
        const values = await this.store.readEncoded(this.definition.name, entity.resource, keys);
        for (let j = 0; j < keys.length; j++) map.set(keys[j] as string, values[j] ?? null);
      }),
    );
    return states;
  }

  private plan(sightings: readonly (Sighting | Unreadable)[], states: BatchStates): void {
    for (const s of sightings) {
      if ('error' in s) {
        this.errors.push(s.error);
        continue;
      }
      if (s.clean && this.unchanged(s, states)) continue;
      const result = mapRecord(
        this.definition,
        this.registry,
        s.record,
        s.clean ? s.keys : undefined,
      );
      if ('error' in result) {
        this.errors.push(result.error);
        continue;
      }
      const mapped = result.entities;
      scratchStates.length = mapped.length;
      for (let j = 0; j < mapped.length; j++) {
        const m = mapped[j] as MappedEntity;
        const i = m.entity.index;
        m.input = s.inputs[i];
        const state = (states[i] as Map<string, string | null>).get(m.key);
        if (state === undefined)
          throw new Error(`internal: no state read for ${m.entity.name} "${m.key}"`);
        scratchStates[j] = state;
      }
      detectRecord(mapped, scratchStates, this.ctx);
    }
  }

  /**
   * Whether every entity of the record is live in state with the record's input fingerprint (and
   * its key is no repeat): then it is counted unchanged and its keys recorded, unmapped.
   */
  private unchanged(s: Sighting, states: BatchStates): boolean {
    const entities = this.definition.entities;
    const registry = this.registry;
    for (let i = 0; i < entities.length; i++) {
      const key = s.keys[i];
      if (key === undefined) continue;
      const entity = entities[i] as EntityDefinition;
      if (registry.alreadyGiven(entity, key)) continue;
      if (registry.repeatOf(entity, key) !== undefined) return false;
      const state = (states[i] as Map<string, string | null>).get(key);
      if (!state || !stateInputIs(state, s.inputs[i] as string)) return false;
    }
    for (let i = 0; i < entities.length; i++) {
      const key = s.keys[i];
      if (key === undefined) continue;
      const entity = entities[i] as EntityDefinition;
      if (registry.alreadyGiven(entity, key)) continue;
      registry.admitKey(entity, key, s.record.source.line);
      countUnchangedInput(entity, this.ctx);
    }
    return true;
  }
}
