/**
 * CPU seconds (user + system) another process has used so far, from /proc (Linux); undefined
 * elsewhere. With Redis's own figure (INFO cpu), what a benchmark's processes spent beside it.
 */
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

/** Clock ticks per second of /proc's utime and stime: 100 on Linux's usual builds. */
const TICKS = 100;

export function processCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return undefined;
  }
}

/** Redis's own CPU seconds so far (shared with whatever else uses that Redis). */
export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  let total = 0;
  for (const m of info.matchAll(/^used_cpu_(?:sys|user):([\d.]+)/gm)) total += Number(m[1]);
  return total;
}
