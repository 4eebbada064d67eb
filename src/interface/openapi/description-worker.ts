/**
 * The loading worker's entry (load-in-worker.ts): resolves one description and posts the result,
 * or the error as its code, message and details.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isFerryError } from '../../errors/index.js';
import type { DocumentsBudget } from './external-documents.js';
import { resolveDescription } from './resolve-description.js';

const { source, text, budget } = workerData as {
  source: string;
  text: string;
  budget: DocumentsBudget;
};

try {
  parentPort?.postMessage({ ok: true, resolved: await resolveDescription(source, text, budget) });
} catch (error) {
  // Plain data only: this post cannot fail where the one above did.
  parentPort?.postMessage(
    isFerryError(error)
      ? { ok: false, code: error.code, message: error.message, details: { ...error.details } }
      : { ok: false, message: String((error as Error)?.stack ?? error) },
  );
}
