import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The handles a test must not leave behind: sockets (Redis, HTTP), listening servers and child
 * processes. Node names them in process.getActiveResourcesInfo(); timers and file reads are left
 * out (they end by themselves).
 */
const WATCHED = ['TCPSocketWrap', 'TCPServerWrap', 'ProcessWrap'] as const;
type Watched = (typeof WATCHED)[number];
export type HandleCounts = Record<Watched, number>;

const NAMES: Record<Watched, string> = {
  TCPSocketWrap: 'socket (a Redis or HTTP connection)',
  TCPServerWrap: 'listening server',
  ProcessWrap: 'child process',
};

export function openHandles(): HandleCounts {
  const counts: HandleCounts = { TCPSocketWrap: 0, TCPServerWrap: 0, ProcessWrap: 0 };
  for (const name of process.getActiveResourcesInfo()) {
    if (name in counts) counts[name as Watched] += 1;
  }
  return counts;
}

function excess(now: HandleCounts, allowed: HandleCounts): string[] {
  return WATCHED.filter((k) => now[k] > allowed[k]).map(
    (k) => `${now[k] - allowed[k]} ${NAMES[k]}${now[k] - allowed[k] > 1 ? 's' : ''}`,
  );
}

/**
 * Waits (closing a socket takes a turn or two of the event loop) until no more handles are open
 * than `allowed`; throws naming what `what` left open when `timeoutMs` pass first.
 */
export async function expectNoMoreHandles(
  what: string,
  allowed: HandleCounts,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = excess(openHandles(), allowed);
    if (left.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${what} left open: ${left.join(', ')}`);
    await sleep(20);
  }
}
