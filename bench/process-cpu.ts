/**
 * CPU seconds (user + system) a process, or one of this process's threads, has used so far, from
 * /proc (Linux); undefined elsewhere. With Redis's own figure (INFO cpu), what a benchmark's
 * processes spent beside it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

/** Clock ticks per second of /proc's utime and stime: 100 on Linux's usual builds. */
const TICKS = 100;

/** utime + stime of a /proc `stat` file, in seconds. */
function statCpuSeconds(path: string): number | undefined {
  try {
    const stat = readFileSync(path, 'utf8');
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return undefined;
  }
}

export function processCpuSeconds(pid: number | undefined): number | undefined {
  return pid === undefined ? undefined : statCpuSeconds(`/proc/${pid}/stat`);
}

/** The parent pid of a /proc `stat` file (its 4th field), or undefined. */
function parentOf(path: string): number | undefined {
  try {
    const stat = readFileSync(path, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/**
 * A process and every descendant still running (`ferry simulator --processes N`: the owner and its
 * serving processes), from /proc; undefined elsewhere.
 */
export function processTreeCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const own = processCpuSeconds(pid);
  if (own === undefined) return undefined;
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const parent = parentOf(`/proc/${name}/stat`);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  let total = own;
  const queue = [...(children.get(pid) ?? [])];
  for (let child = queue.pop(); child !== undefined; child = queue.pop()) {
    total += processCpuSeconds(child) ?? 0;
    queue.push(...(children.get(child) ?? []));
  }
  return total;
}

/** This process's main thread alone (the process's figure counts every thread). */
export function mainThreadCpuSeconds(): number | undefined {
  return statCpuSeconds(`/proc/self/task/${process.pid}/stat`);
}

/** Redis's own CPU seconds so far (shared with whatever else uses that Redis). */
export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  let total = 0;
  for (const m of info.matchAll(/^used_cpu_(?:sys|user):([\d.]+)/gm)) total += Number(m[1]);
  return total;
}
