/**
 * Feeds mapped records to change detection in batches, one HMGET per resource each, read ahead
 * (read-ahead.ts) while the previous batch is planned.
 */
import { detectRecord, type DetectContext } from '../change-detection.js';
import type { MappedEntity } from '../mapping/key-registry.js';
import type { StateStore } from '../../state/index.js';
import { ReadAhead } from './read-ahead.js';

export class StateBatches {
  private readonly ahead = new ReadAhead();

  constructor(
    private readonly store: StateStore,
    private readonly pipeline: string,
    private readonly ctx: DetectContext,
  ) {}

  /** Queues a batch of records (each a list of entities); waits while an earlier batch is planned. */
  async push(records: MappedEntity[][]): Promise<void> {
    if (records.length === 0) return;
    await this.ahead.push(this.readStates(records), ({ values, cursors }) => {
      const states: (string | null)[] = [];
      for (const entities of records) {
        states.length = entities.length;
        for (let j = 0; j < entities.length; j++) {
          const i = (entities[j] as MappedEntity).entity.index;
          const cursor = cursors[i] as number;
          cursors[i] = cursor + 1;
          states[j] = (values[i] as (string | null)[])[cursor] ?? null;
        }
        detectRecord(entities, states, this.ctx);
      }
    });
  }

  /** Waits until every queued batch is planned. */
  async drain(): Promise<void> {
    await this.ahead.drain();
  }

  /** Per entity (by index): the encoded state of each of its keys in the batch, in order. */
  private async readStates(
    records: MappedEntity[][],
  ): Promise<{ values: (string | null)[][]; cursors: number[] }> {
    const keys: string[][] = [];
    const resources: string[] = [];
    for (const entities of records) {
      for (const m of entities) {
        const i = m.entity.index;
        if (!keys[i]) {
          keys[i] = [];
          resources[i] = m.entity.resource;
        }
        keys[i].push(m.key);
      }
    }
    const values: (string | null)[][] = [];
    await Promise.all(
      keys.map(async (list, i) => {
        values[i] = await this.store.readEncoded(this.pipeline, resources[i] as string, list);
      }),
    );
    return { values, cursors: values.map(() => 0) };
  }
}
