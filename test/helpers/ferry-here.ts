/**
 * `ferry` run in this process through main(), for tests whose point is what a command does rather
 * than the process around it (signals, kill, several processes stay child processes). A tsx child
 * process costs one to several seconds of start-up on a busy machine; this costs milliseconds.
 *
 * Each call gets its own environment, standard streams and exit code; it fails when the command
 * touched the process's environment, exit code or working directory. A Redis connection, server or child process
 * that a command leaves open fails its test file (test/helpers/no-open-handles.ts).
 */
import { Readable, Writable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface HereOptions {
  /** The command's whole environment (a child process would get it as is). */
  env?: NodeJS.ProcessEnv;
  /** What the command reads as standard input (default: nothing, as from /dev/null). */
  stdin?: string | Buffer;
}

function capture(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, next) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      next();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

let running = false;

/** The caller's environment without its FERRY_*, REDIS_URL and OTEL_*, and FERRY_CONFIG = `config`. */
export function configOnlyEnv(config: string): NodeJS.ProcessEnv {
  const own = Object.entries(process.env).filter(([k]) => !/^(FERRY_|REDIS_URL$|OTEL_)/.test(k));
  return { ...Object.fromEntries(own), FERRY_CONFIG: config };
}

/** Runs `ferry ARGS` from the project's root, as the binary would; resolves when it returns. */
export async function ferryHere(args: string[], options: HereOptions = {}): Promise<CliRun> {
  // Calls in parallel would share the process's exit code and working directory.
  if (running) throw new Error('ferryHere: one call at a time (await the previous one)');
  if (process.cwd() !== PROJECT_ROOT) {
    throw new Error(`ferryHere runs from ${PROJECT_ROOT}; the tests run from ${process.cwd()}`);
  }
  running = true;
  const exitCodeBefore = process.exitCode;
  const envBefore = JSON.stringify(process.env);
  const out = capture();
  const err = capture();
  try {
    const code = await main(args, {
      stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)], {
        objectMode: false,
      }),
      stdout: out.stream,
      stderr: err.stream,
      env: { ...(options.env ?? process.env) },
    });
    const what = `ferry ${args.join(' ')}`;
    if (process.exitCode !== exitCodeBefore) {
      process.exitCode = exitCodeBefore;
      throw new Error(`${what} set process.exitCode instead of returning its code`);
    }
    if (JSON.stringify(process.env) !== envBefore) {
      throw new Error(`${what} changed process.env (a command reads and writes its own env only)`);
    }
    if (process.cwd() !== PROJECT_ROOT) {
      process.chdir(PROJECT_ROOT);
      throw new Error(`${what} changed the working directory`);
    }
    return { code, stdout: out.text(), stderr: err.text() };
  } finally {
    running = false;
  }
}
