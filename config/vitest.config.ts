import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** What makes a test file long: processes of its own (ferry, redis-server, sshd) or a browser. */
const SLOW =
  /\b(spawn|spawnSync|execFile|execFileSync|spawnFerry|startRedisServer|startSshd|launchBrowser)\(/;

/**
 * Starts the files that run processes or a browser first (each in the order vitest would pick:
 * longest last time, else largest), the rest after: a long file that starts last leaves the other
 * worker idle until it ends. Vitest alone orders by size where it has no timings (a fresh clone),
 * and those files are small.
 */
class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slow = new Set(sorted.filter((f) => SLOW.test(readFileSync(f.moduleId, 'utf8'))));
    return [...sorted.filter((f) => slow.has(f)), ...sorted.filter((f) => !slow.has(f))];
  }
}

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['test/**/*.test.ts', 'connectors/**/*.test.ts'],
    // Generous: tests of processes (signals, kill, several workers) start `ferry` children, which
    // take many seconds on a 2-core machine at a load of 25; a test waits on conditions, not this.
    testTimeout: 120_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // One worker process runs many files: each file no longer starts a fresh process and imports
    // fastify, bullmq, ioredis, zod afresh (measured: 60 % less CPU; docs/BENCHMARKS.md, "Test
    // suite"). Files share nothing but that: each leaves nothing open (setupFiles below).
    isolate: false,
    // One more worker than this 2-core machine has cores: the suite mostly waits (on simulator
    // latency, leases, retries, child processes): with two workers, 130 s of CPU in 4.5 minutes.
    // A third fills the waits (3 to 3.5 minutes); a fourth gained little more and stretched every
    // file under load. docs/BENCHMARKS.md, "Test suite".
    maxWorkers: 3,
    sequence: { sequencer: SlowFirstSequencer },
    globalSetup: ['test/helpers/global-setup.ts'],
    // Each file must close every socket, server and child process it opened.
    setupFiles: ['test/helpers/no-open-handles.ts'],
  },
});
