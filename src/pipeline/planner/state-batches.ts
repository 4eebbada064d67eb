/**
 * Feeds mapped records to change detection in batches: one batch's state is read from Redis
 * (one HMGET per resource) while the previous batch is being planned, so reading the file, Redis
 * round trips and hashing overlap. Batches are planned strictly in input order.
 */
import { detectRecord, type DetectContext, type EncodedStates } from '../change-detection.js';
import type { MappedEntity } from '../mapping/key-registry.js';
import type { StateStore } from '../state-store.js';

export class StateBatches {
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: StateStore,
    private readonly pipeline: string,
    private readonly ctx: DetectContext,
  ) {}

  /** Queues a batch of records (each a list of entities); waits while an earlier batch is planned. */
  async push(records: MappedEntity[][]): Promise<void> {
    if (records.length === 0) return;
    const reads = this.readStates(records);
    reads.catch(() => undefined); // awaited below; keeps Node from flagging it meanwhile
    const previous = this.pending;
    this.pending = previous.then(async () => {
      const states = await reads;
      for (const entities of records) detectRecord(entities, states, this.ctx);
    });
    this.pending.catch(() => undefined);
    await previous;
  }

  /** Waits until every queued batch is planned. */
  async drain(): Promise<void> {
    await this.pending;
  }

  /** Per entity (by index): the encoded state of each of its keys in the batch, in order. */
  private async readStates(records: MappedEntity[][]): Promise<EncodedStates> {
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
