/**
 * CPU seconds (user + system) a process, or one of this process's threads, has used so far, from
 * /proc (Linux); undefined elsewhere. With Redis's own figure (INFO cpu), what a benchmark's
 * processes spent beside it.
 */
import { readFileSync } from 'node:fs';
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
