import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `check` until it holds; throws, naming `what`, when `timeoutMs` pass first. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
