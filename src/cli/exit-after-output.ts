/**
 * How the `ferry` binary ends (bin.ts, ferry.js). process.exit() ends the process at once, and on
 * Linux a pipe's writes are asynchronous: whatever the pipe had not taken yet (it takes 64 KiB at a
 * time) was lost, so `ferry plan --json | jq` read a cut document. The exit waits until stdout and
 * stderr have handed everything to the OS, then exits, still at once: a library handle left open
 * (ssh2's on Node 24) must not keep a finished command alive.
 */

/** Resolves once everything written to `stream` before has been written out (or it failed). */
function written(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.writableLength === 0 || stream.destroyed) return Promise.resolve();
  // Writes complete in order: the callback of an empty write comes after the ones before.
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/**
 * When stdout's reader goes away (`ferry plan --json | head`), the process ends at once and
 * quietly with 141, as a process killed by SIGPIPE does (what `yes | head` reports), instead of an
 * uncaught EPIPE's stack.
 */
export function endWhenReaderGoes(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(141);
  });
}

/** Exits with `code` once stdout and stderr are written out. */
export async function exitAfterOutput(code: number): Promise<never> {
  process.exitCode = code;
  await Promise.all([written(process.stdout), written(process.stderr)]);
  process.exit(code);
}
