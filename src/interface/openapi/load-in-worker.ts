/**
 * Resolves a description in a worker thread, within a time and memory budget (docs/INTERFACE.md,
 * Limits): the event loop that asked (the console's, a run's) goes on answering meanwhile, and a
 * description past its budget, or a stop signal, ends the worker wherever it is.
 */
import { Worker } from 'node:worker_threads';
import type { ErrorCode } from '../../errors/index.js';
import { type DocumentsBudget, refsOf } from './external-documents.js';
import {
  OpenApiBudgetError,
  OpenApiError,
  OpenApiRefRefusedError,
  OpenApiStoppedError,
} from './openapi-error.js';
import { MAX_DESCRIPTION_BYTES } from './read-source.js';
import { parseText } from './parse-text.js';
import { resolveDescription, type Resolved } from './resolve-description.js';

export interface LoadBudget extends DocumentsBudget {
  /** Time to read the `$ref`d documents and resolve, in ms. */
  ms: number;
  /** The worker's heap, in MB. */
  memoryMb: number;
}

export const DEFAULT_LOAD_BUDGET: LoadBudget = {
  ms: 30_000,
  memoryMb: 512,
  maxBytes: MAX_DESCRIPTION_BYTES,
  maxDocuments: 100,
};

type Answer =
  | { ok: true; resolved: Resolved }
  | { ok: false; code?: ErrorCode; message: string; details?: Record<string, string> };

/** The error the worker sent, as its class again. */
function errorOf(answer: Extract<Answer, { ok: false }>): Error {
  const d = answer.details ?? {};
  const source = d.source ?? '';
  let error: Error;
  if (answer.code === 'FERRY_OPENAPI_INVALID')
    error = new OpenApiError(source, d.pointer ?? '', '');
  else if (answer.code === 'FERRY_OPENAPI_REF_REFUSED') {
    error = new OpenApiRefRefusedError(source, d.pointer ?? '', d.ref ?? '', '');
  } else if (answer.code === 'FERRY_OPENAPI_BUDGET') {
    error = new OpenApiBudgetError(source, d.budget ?? '', '');
  } else return new Error(`reading the description failed: ${answer.message}`);
  error.message = answer.message;
  return error;
}

/** The worker's entry: its TypeScript source through tsx when Ferry runs from its sources. */
function startWorker(workerData: unknown, budget: LoadBudget): Worker {
  const options = { workerData, resourceLimits: { maxOldGenerationSizeMb: budget.memoryMb } };
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./description-worker.js', import.meta.url), options);
  }
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./description-worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { ...options, eval: true });
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * Up to this size, a description whose `$ref`s all stay inside it is resolved in the process
 * itself: parsing and resolving it is linear (dereference.ts) and takes milliseconds, less than
 * starting a worker (about 0.1 s of CPU, 0.5 s from the TypeScript sources), which every run, plan
 * and check would pay.
 */
export const IN_PROCESS_BYTES = 256 * 1024;

/**
 * `text` (read from `source`) resolved within `budget`: in a worker thread, unless it is small and
 * refers to no other document; `signal` stops it (OpenApiStoppedError).
 */
export async function resolveBounded(
  source: string,
  text: string,
  budget: LoadBudget = DEFAULT_LOAD_BUDGET,
  signal?: AbortSignal,
): Promise<Resolved> {
  if (signal?.aborted) throw new OpenApiStoppedError(source);
  if (Buffer.byteLength(text) <= IN_PROCESS_BYTES) {
    const raw = parseText(source, text);
    if (refsOf(raw).every(({ ref }) => ref.startsWith('#'))) {
      return resolveDescription(source, text, budget, raw);
    }
  }
  return resolveInWorker(source, text, budget, signal);
}

/** `text` (read from `source`) resolved in a worker; `signal` stops it (OpenApiStoppedError). */
export function resolveInWorker(
  source: string,
  text: string,
  budget: LoadBudget = DEFAULT_LOAD_BUDGET,
  signal?: AbortSignal,
): Promise<Resolved> {
  if (signal?.aborted) return Promise.reject(new OpenApiStoppedError(source));
  const { maxBytes, maxDocuments } = budget;
  const worker = startWorker({ source, text, budget: { maxBytes, maxDocuments } }, budget);
  return new Promise<Resolved>((resolve, reject) => {
    const end = (outcome: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () =>
        end(() =>
          reject(
            new OpenApiBudgetError(
              source,
              'time',
              `not resolved within ${seconds(budget.ms)} (the time budget of a description), so it was stopped; its $refs repeat or nest too much to be read. Ask the platform for a flatter description`,
            ),
          ),
        ),
      budget.ms,
    );
    const onAbort = () => end(() => reject(new OpenApiStoppedError(source)));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (answer: Answer) =>
      end(() => (answer.ok ? resolve(answer.resolved) : reject(errorOf(answer)))),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      end(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new OpenApiBudgetError(
                source,
                'memory',
                `needs more than ${budget.memoryMb} MB to resolve (the memory budget of a description), so it was stopped; its $refs repeat or nest too much to be read. Ask the platform for a smaller description`,
              )
            : error,
        ),
      ),
    );
    worker.once('exit', (code) =>
      end(() => reject(new Error(`the description's worker exited (${code}) without an answer`))),
    );
  });
}
