/**
 * What the tests run with: none of the caller's Ferry, Redis or OpenTelemetry settings. Ferry reads
 * FERRY_* (FERRY_PREFIX, FERRY_BASE_URL...), REDIS_URL and REDIS_CLUSTER from the environment, the
 * AWS SDK reads AWS_*, and an OpenTelemetry SDK OTEL_*: a shell set up to run Ferry would otherwise
 * point the tests (and every `ferry` they start) at its own prefix, platform or collector. A test
 * sets what it needs, in the env it gives a command.
 *
 * Kept: REDIS_URL, as the address of the tests' Redis (TEST_REDIS_URL: `.ci/run` sets it to the Redis
 * it found or started), and the tests' own switches, which Ferry never reads.
 */
export const TEST_SWITCHES = ['FERRY_SHARED_DIR', 'FERRY_TEST_LOG', 'FERRY_SCREENSHOTS_DIR'];

/** Kept too: set by Ferry's S3 source in its own process (it only silences a warning). */
const SET_BY_FERRY = ['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'];

const CALLERS = /^(FERRY_|OTEL_|REDIS_|AWS_)/;

/** The names in `env` that are the caller's settings, not the tests'. */
export function callerSettings(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env).filter(
    (name) =>
      CALLERS.test(name) &&
      name !== 'REDIS_URL' &&
      !TEST_SWITCHES.includes(name) &&
      !SET_BY_FERRY.includes(name),
  );
}

/** Removes the caller's settings from `env` (in place) and names the tests' Redis in REDIS_URL. */
export function clearCallerEnv(env: NodeJS.ProcessEnv, redisUrl: string): void {
  for (const name of callerSettings(env)) delete env[name];
  env.REDIS_URL = redisUrl;
}
