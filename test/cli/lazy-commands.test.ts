/**
 * `ferry --help` loads no command and none of the packages behind them (start-up in
 * bench/startup.ts); a command loads what it needs when it runs.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';

const HEAVY = ['bullmq', 'ioredis', 'undici', 'fastify', 'zod', 'pino', 'yaml', 'prom-client'];

/** The OpenTelemetry SDK and exporter: loaded only when traces are exported. */
const TRACING = [
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
];

/** What node prints to stderr for `args`, the report-packages hook's lines among it. */
function stderrOf(args: string[], extraEnv: NodeJS.ProcessEnv = {}): string {
  // The caller's OTEL_* do not count: a test sets those it wants.
  const own = Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_'));
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      resolve(PROJECT_ROOT, 'test/cli/helpers/report-packages.mjs'),
      ...args,
    ],
    {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      env: { ...Object.fromEntries(own), REDIS_URL: 'redis://127.0.0.1:1', ...extraEnv },
    },
  );
  return child.stderr;
}

/** The packages the hook saw loaded. */
const packagesIn = (stderr: string): string[] =>
  [...stderr.matchAll(/^loaded (\S+)$/gm)].map((m) => m[1]!);

const packagesLoadedBy = (ferryArgs: string[], extraEnv: NodeJS.ProcessEnv = {}): string[] =>
  packagesIn(stderrOf([resolve(PROJECT_ROOT, 'src/cli/ferry.js'), ...ferryArgs], extraEnv));

describe('commands load lazily', () => {
  it('ferry --help loads none of the heavy packages', () => {
    const loaded = packagesLoadedBy(['--help']);
    expect(loaded.filter((p) => HEAVY.includes(p))).toEqual([]);
  });

  it("no command's module loads them: each command's --help is as light as ferry --help", () => {
    // What `ferry <command> --help` loads: every command's module, in one process.
    const loadAll = `const { COMMANDS } = await import(${JSON.stringify(
      resolve(PROJECT_ROOT, 'src/cli/commands/index.ts'),
    )});
for (const c of COMMANDS) await c.load();
process.stderr.write('loaded-commands ' + COMMANDS.length + '\\n');`;
    const stderr = stderrOf(['--input-type=module', '-e', loadAll]);
    expect(stderr).toMatch(/^loaded-commands \d+$/m);
    expect(packagesIn(stderr).filter((p) => HEAVY.includes(p))).toEqual([]);
  });

  it('a command loads what it runs with', () => {
    // It fails (no Redis on port 1) after loading the queue's packages.
    expect(packagesLoadedBy(['status'])).toEqual(expect.arrayContaining(['ioredis', 'zod']));
  });

  it('a run loads the tracing SDK only when an OTLP endpoint is configured', () => {
    // It fails (no Redis on port 1) after starting its tracing, if any.
    const loaded = packagesLoadedBy(['run', 'catalog']);
    expect(loaded).toContain('ioredis');
    expect(loaded.filter((p) => TRACING.includes(p))).toEqual([]);
    const traced = packagesLoadedBy(['run', 'catalog'], {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1',
    });
    expect(traced).toEqual(expect.arrayContaining(TRACING));
  });
});
