/**
 * Planning in batches with the next batch's state read ahead: a batch's read starts at once, its
 * planning waits for the batches before it, and the caller waits only while the previous batch is
 * planned, so reading the file, Redis round trips and hashing overlap while batches are planned
 * strictly in input order.
 */
export class ReadAhead {
  private pending: Promise<void> = Promise.resolve();

  /** Queues `plan` of what `read` gives; resolves once the batch before it is planned. */
  async push<T>(read: Promise<T>, plan: (value: T) => void): Promise<void> {
    read.catch(() => undefined); // awaited in turn; keeps Node from flagging it meanwhile
    const previous = this.pending;
    this.pending = previous.then(async () => plan(await read));
    this.pending.catch(() => undefined);
    await previous;
  }

  /** Waits until every queued batch is planned; throws the first failure. */
  async drain(): Promise<void> {
    await this.pending;
  }
}
