/**
 * Fails a test file that leaves a Redis connection, an HTTP socket, a listening server or a child
 * process open after its last hook (a setup file of config/vitest.config.ts): one that did would
 * hold its worker, or a port, or CPU, after the file is over.
 */
import { afterAll } from 'vitest';
import { expectNoMoreHandles, openHandles } from './open-handles.js';

const atStart = openHandles();

// Registered before the file's own hooks, so it runs after them (hooks run as a stack).
afterAll(async () => {
  await expectNoMoreHandles('this test file', atStart, 10_000);
}, 20_000);
