import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['test/**/*.test.ts', 'connectors/**/*.test.ts'],
    // Generous: tests of processes (signals, kill, several workers) start tsx children, which take
    // 40 s and more on a 2-core machine at a load of 25; a test waits on conditions, not on this.
    testTimeout: 120_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // One worker process runs many files: each file no longer starts a fresh process and imports
    // fastify, bullmq, ioredis, zod afresh (measured: 60 % less CPU; docs/BENCHMARKS.md, "Test
    // suite"). Files share nothing but that: each leaves nothing open (setupFiles below).
    isolate: false,
    // Two cores: integration tests start servers and workers; keep parallelism modest.
    maxWorkers: 2,
    globalSetup: ['test/helpers/global-setup.ts'],
    // Each file must close every socket, server and child process it opened.
    setupFiles: ['test/helpers/no-open-handles.ts'],
  },
});
