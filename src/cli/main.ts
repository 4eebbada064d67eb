import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import type { FerryConfig } from '../config/index.js';
import { closestName, didYouMean } from '../base/index.js';
import { UsageError, isFerryError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { Telemetry } from '../logging/telemetry.js';
import {
  COMMON_OPTIONS,
  writeJson,
  type CommandContext,
  type DescribedCommand,
} from './command.js';
import { COMMANDS, type CommandEntry } from './commands/index.js';
import { commandHelp, globalHelp } from './help.js';

/**
 * The exit code of a failure that is Ferry's own (an unexpected exception: a bug), EX_SOFTWARE of
 * sysexits.h: never 1, which says that records were rejected.
 */
export const EXIT_SOFTWARE = 70;

/** Where one invocation reads and writes: the process's own streams and environment by default. */
export interface MainIo {
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
  env?: NodeJS.ProcessEnv;
}

function findCommand(argv: string[]): { entry: CommandEntry; rest: string[] } | undefined {
  const two = `${argv[0]} ${argv[1]}`;
  const byTwo = COMMANDS.find((c) => c.name === two);
  if (byTwo) return { entry: byTwo, rest: argv.slice(2) };
  const byOne = COMMANDS.find((c) => c.name === argv[0]);
  return byOne ? { entry: byOne, rest: argv.slice(1) } : undefined;
}

function subcommandsOf(word: string | undefined): CommandEntry[] {
  return COMMANDS.filter((c) => c.name.startsWith(`${word} `));
}

/** parseArgs' message, without its advice on positionals for an unknown option. */
function usageText(error: unknown): string {
  const message = (error as Error).message;
  if ((error as { code?: string }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return message;
  return message.split('. ')[0]!.replace(/\.$/, '');
}

/** " Did you mean --x?" for parseArgs' unknown option, by its code (never its text). */
function optionHint(error: unknown, options: readonly string[]): string {
  if ((error as { code?: string }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return '';
  const given = /'(-{1,2}[^'\s]+)'/.exec((error as Error).message)?.[1]?.replace(/^-+/, '');
  const name = given === undefined ? undefined : closestName(given.split('=')[0]!, options);
  return name === undefined ? '' : ` Did you mean --${name}?`;
}

async function described(entry: CommandEntry): Promise<DescribedCommand> {
  return { ...(await entry.load()), summary: entry.summary };
}

function errorName(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).name;
}

/** Runs one `ferry` invocation; resolves to the process exit code. */
export async function main(argv: string[], io: MainIo = {}): Promise<number> {
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const env = io.env ?? process.env;

  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    stdout.write(globalHelp(COMMANDS));
    return argv.length === 0 ? 2 : 0;
  }
  const found = findCommand(argv);
  if (!found) {
    const subs = subcommandsOf(argv[0]);
    const names = subs.map((c) => c.name);
    if (subs.length > 0 && (argv.includes('--help') || argv.includes('-h'))) {
      // Asked for: the subcommands and their help, on stdout, and no error.
      const helps = await Promise.all(subs.map(async (c) => commandHelp(await described(c))));
      stdout.write(`ferry ${argv[0]} has subcommands: ${names.join(', ')}\n\n${helps.join('\n')}`);
      return 0;
    }
    if (subs.length > 0) {
      const hint = argv[1] ? didYouMean(`${argv[0]} ${argv[1]}`, names) : '';
      stderr.write(`ferry ${argv[0]} needs a subcommand: ${names.join(', ')}.${hint}\n`);
      return 2;
    }
    const known = [...new Set(COMMANDS.map((c) => c.name.split(' ')[0]!))];
    stderr.write(
      `Unknown command "${argv[0]}".${didYouMean(argv[0]!, known)} Run \`ferry --help\` to ` +
        'list the commands.\n',
    );
    return 2;
  }
  const { entry, rest } = found;
  const command = await described(entry);
  const wantsJson = rest.includes('--json');

  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let config: FerryConfig | undefined;
  let contracted: FerryConfig | undefined;
  let logger: Logger | undefined;
  let tracing: Promise<Telemetry | undefined> | undefined;
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args: rest,
        options: { ...command.options, ...COMMON_OPTIONS },
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      throw new UsageError(
        `${usageText(error)}.${optionHint(error, Object.keys({ ...command.options, ...COMMON_OPTIONS }))} ` +
          `Run \`ferry ${command.name} --help\` for the options.`,
      );
    }
    if (parsed.values.help) {
      stdout.write(commandHelp(command));
      return 0;
    }
    const [min, max] = command.positionals ?? [0, 0];
    if (parsed.positionals.length < min || parsed.positionals.length > max) {
      throw new UsageError(
        `ferry ${command.name} takes ${min === max ? min : `${min} to ${max}`} argument(s), got ${parsed.positionals.length}. Usage: ferry ${command.usage}`,
      );
    }
    // Loaded only now: `--help` and bad usage need neither (and they weigh: zod, yaml, pino).
    const [{ loadConfig }, { createLogger }] = await Promise.all([
      import('../config/load-config.js'),
      import('../logging/logger.js'),
    ]);
    const ctx: CommandContext = {
      args: { values: parsed.values, positionals: parsed.positionals },
      stdin,
      stdout,
      stderr,
      env,
      config: () => (config ??= loadConfig(env).config),
      contractConfig: async () => {
        const { configWithContract } = await import('../interface/openapi/configured-contract.js');
        return (contracted ??= await configWithContract(ctx.config(), controller.signal));
      },
      logger: () => {
        if (!logger) {
          const asked =
            env.FERRY_LOG_LEVEL ??
            (config && config.log.level !== 'info' ? config.log.level : undefined);
          const quiet = command.reportsToPeople?.(parsed.values) === true;
          const level = asked ?? (quiet ? 'warn' : 'info');
          logger = createLogger({
            level,
            format: config?.log.format ?? 'auto',
            destination: stderr,
          });
        }
        return logger;
      },
      startTracing: async () => {
        tracing ??= import('../logging/telemetry.js').then(({ startTelemetry }) =>
          startTelemetry(env, ctx.config().telemetry.otlp.endpoint, (message) =>
            ctx.logger().warn({ component: 'opentelemetry' }, message),
          ),
        );
        await tracing;
      },
      stopSignal: controller.signal,
    };
    return await command.run(ctx);
  } catch (error) {
    if (isFerryError(error)) {
      if (wantsJson) await writeJson(stdout, { error: error.toJSON() });
      stderr.write(`ferry ${command.name}: ${error.message}\n`);
      return error.exitCode;
    }
    const { isRedisConnectionError, RedisUnavailableError, redisWhere } =
      await import('../redis/redis-unavailable.js');
    if (isRedisConnectionError(error)) {
      // Redis went away mid-command (after the command's own check at start): an outage, exit 5.
      const lost = new RedisUnavailableError(
        redisWhere(config?.redis.url ?? env.REDIS_URL ?? 'redis://127.0.0.1:6379'),
        `ferry ${command.name} stopped when it lost the connection (${errorName(error)})`,
        { cause: error },
      );
      if (wantsJson) await writeJson(stdout, { error: lost.toJSON() });
      stderr.write(`ferry ${command.name}: ${lost.message}\n`);
      return lost.exitCode;
    }
    stderr.write(
      `ferry ${command.name}: unexpected error (a fault of Ferry's own, exit ${EXIT_SOFTWARE}): ` +
        `${(error as Error)?.stack ?? String(error)}\n`,
    );
    return EXIT_SOFTWARE;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    // The spans still buffered go out before the process ends (the worker's graceful stop).
    await (await tracing?.catch(() => undefined))?.shutdown();
    logger?.flush();
  }
}
