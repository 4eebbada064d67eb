/**
 * The Idempotency-Key store: the first request with a key is executed and its answer kept; the same
 * key and fingerprint later replays that answer, a different fingerprint is refused, and a key whose
 * first request is still being processed answers "in progress". Answers are kept up to a capacity
 * (oldest dropped first); the keys that were applied are remembered for good, so a write applied
 * again after its answer was dropped still counts as a duplicate.
 */
import type { SimResponse } from './http-io.js';

interface Entry {
  fingerprint: string;
  /** Undefined while the first request is in flight. */
  response?: SimResponse;
}

export type Admission =
  | { kind: 'new' }
  | { kind: 'replay'; response: SimResponse }
  | { kind: 'reused' }
  | { kind: 'inFlight' };

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  private readonly appliedKeys = new Set<string>();

  constructor(private readonly capacity: number) {}

  /** Decides what to do with a request carrying `key`; a new key is marked in flight. */
  admit(key: string, fingerprint: string): Admission {
    const entry = this.entries.get(key);
    if (!entry) {
      this.entries.set(key, { fingerprint });
      return { kind: 'new' };
    }
    if (entry.fingerprint !== fingerprint) return { kind: 'reused' };
    if (!entry.response) return { kind: 'inFlight' };
    return { kind: 'replay', response: entry.response };
  }

  /** Keeps the answer of the request admitted as new. */
  complete(key: string, response: SimResponse): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.response = response;
    this.evict();
  }

  /** Forgets a key whose request was not executed (a fault before applying). */
  abandon(key: string): void {
    const entry = this.entries.get(key);
    if (entry && !entry.response) this.entries.delete(key);
  }

  /** Records that a write under `key` changed state; true when one already had. */
  markApplied(key: string): boolean {
    if (this.appliedKeys.has(key)) return true;
    this.appliedKeys.add(key);
    return false;
  }

  clear(): void {
    this.entries.clear();
    this.appliedKeys.clear();
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.capacity) return;
      if (entry.response) this.entries.delete(key);
    }
  }
}
