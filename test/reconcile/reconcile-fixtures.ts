/** `ferry` in this process (main()) against a test's config file, and plain calls of the simulator. */
import { main } from '../../src/cli/main.js';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';

/** What the environment would override: a test's config file says it instead. */
const OVERRIDES = ['REDIS_URL', 'FERRY_PREFIX', 'FERRY_BASE_URL', 'FERRY_TOKEN', 'FERRY_LISTING'];

export async function runFerry(
  configFile: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = { write: (s: string) => out.push(s) } as unknown as NodeJS.WriteStream;
  const stderr = { write: (s: string) => err.push(s) } as unknown as NodeJS.WriteStream;
  const all: NodeJS.ProcessEnv = { ...process.env, FERRY_CONFIG: configFile, ...env };
  for (const name of OVERRIDES) if (!(name in env)) delete all[name];
  const code = await main(args, { stdout, stderr, env: all });
  return { code, out: out.join(''), err: err.join('') };
}

/** A call of the simulator's interface or admin endpoints, as a back office would make it. */
export async function simCall(
  sim: RunningSimulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return await res.json();
}

export interface SimCounts {
  requests: number;
  byOperation: Record<string, number>;
}

export async function simStats(sim: RunningSimulator): Promise<SimCounts> {
  return (await simCall(sim, 'GET', '/__sim/stats')) as SimCounts;
}

/** Requests per operation between two stats (operations with none left out). */
export function requestsSince(before: SimCounts, after: SimCounts): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [id, n] of Object.entries(after.byOperation)) {
    const d = n - (before.byOperation[id] ?? 0);
    if (d > 0) out[id] = d;
  }
  return out;
}
