/**
 * The suite runs the same whatever the caller's shell holds: the global setup clears FERRY_*,
 * REDIS_* (but REDIS_URL, the tests' Redis) and OTEL_* before the workers start, so neither the
 * tests nor the processes they start see them. `.ci/run` runs the suite with such settings.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { callerSettings, clearCallerEnv, TEST_SWITCHES } from '../helpers/test-env.js';

describe("the tests' environment", () => {
  it("holds none of the caller's Ferry, Redis or OpenTelemetry settings", () => {
    expect(callerSettings(process.env)).toEqual([]);
    expect(process.env.REDIS_URL).toBe(TEST_REDIS_URL);
  });

  it('is what a child process (a `ferry` a test starts) inherits', () => {
    const seen = JSON.parse(
      execFileSync(process.execPath, ['-e', 'console.log(JSON.stringify(process.env))'], {
        encoding: 'utf8',
      }),
    ) as NodeJS.ProcessEnv;
    expect(callerSettings(seen)).toEqual([]);
    expect(seen.REDIS_URL).toBe(TEST_REDIS_URL);
  });

  it("is cleared of a shell's settings, keeping the tests' switches", () => {
    const env: NodeJS.ProcessEnv = {
      PATH: '/usr/bin',
      FERRY_PREFIX: 'zzz',
      FERRY_BASE_URL: 'http://127.0.0.1:9',
      REDIS_URL: 'redis://10.0.0.1:6379',
      REDIS_CLUSTER: '10.0.0.1:7000',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      AWS_PROFILE: 'prod',
      ...Object.fromEntries(TEST_SWITCHES.map((name) => [name, 'kept'])),
    };
    clearCallerEnv(env, 'redis://127.0.0.1:6379');
    expect(env).toEqual({
      PATH: '/usr/bin',
      REDIS_URL: 'redis://127.0.0.1:6379',
      ...Object.fromEntries(TEST_SWITCHES.map((name) => [name, 'kept'])),
    });
  });
});
