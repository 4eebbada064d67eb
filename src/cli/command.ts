import type { Readable, Writable } from 'node:stream';
import { jsonChunks } from '../base/index.js';
import type { FerryConfig } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** Shown in --help, e.g. `k=v` or `FILE`. */
  placeholder?: string;
  description: string;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

export interface CommandContext {
  args: ParsedArgs;
  /** What `-` reads (a file argument meaning standard input). */
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  /** The validated configuration (loaded on first use; a bad config throws ConfigError). */
  config(): FerryConfig;
  /**
   * The configuration with the bindings of the platform's OpenAPI description (interface.openapi)
   * merged in, read once; the same as config() when no description is configured.
   */
  contractConfig(): Promise<FerryConfig>;
  /** A logger writing to stderr at the configured level. */
  logger(): Logger;
  /**
   * Starts exporting traces when an OTLP endpoint is configured (src/logging/telemetry.ts), once;
   * the spans still buffered are exported when the command ends. A command that delivers or plans
   * calls it after its config loaded.
   */
  startTracing(): Promise<void>;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
  readonly stopSignal: AbortSignal;
}

/** A command's declaration and what it does; its summary is in commands/index.ts. */
export interface Command {
  /** One or two words: `operations`, `config check`, `dlq list`. */
  name: string;
  /** The line after `Usage: ferry `, e.g. `call <operationId> [options]`. */
  usage: string;
  /** Longer help text: what it does, exit codes, examples. */
  description?: string;
  options: Record<string, OptionSpec>;
  /** Positional arguments accepted: [min, max]. */
  positionals?: [number, number];
  /**
   * The command prints a report for people on stdout (given its options): its log then shows
   * warnings and errors only, unless FERRY_LOG_LEVEL (or a log.level other than info) asks for
   * more, so that no info line lands in the middle of the report.
   */
  reportsToPeople?: (values: ParsedArgs['values']) => boolean;
  run(ctx: CommandContext): Promise<number>;
}

/** Writes `text`, waiting when `out` has more buffered than it wants (a slow pipe's reader). */
export async function writeOut(out: Writable, text: string | Uint8Array): Promise<void> {
  if (out.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const done = (error?: Error): void => {
      out.off('drain', done).off('close', done).off('error', done);
      if (error) reject(error);
      else resolve();
    };
    out.on('drain', done).on('close', done).on('error', done);
  });
}

/** Pieces are written in runs of about this many characters. */
const WRITE_SIZE = 64 * 1024;

/** An array written as the last property of a document by writeJson, from elsewhere (a spool). */
export interface JsonTail {
  name: string;
  count: number;
  /** Writes the array's elements, each `\n    ` and its JSON indented, separated by commas. */
  write(out: Writable): Promise<void>;
}

/**
 * One JSON document and a line break, written piece by piece as a slow reader takes it, never as
 * one string (a plan of a million items is more than a string holds). Exact: a dead letter's
 * amounts keep every digit (base/exact-json). With `tail`, `value` is an object and the tail's
 * array is its last property.
 */
export async function writeJson(out: Writable, value: unknown, tail?: JsonTail): Promise<void> {
  let pending = '';
  for (const piece of jsonChunks(value, 2)) {
    pending += piece;
    // The last two characters are held back: with a tail, the object's closing `\n}` goes.
    if (pending.length >= WRITE_SIZE) {
      await writeOut(out, pending.slice(0, -2));
      pending = pending.slice(-2);
    }
  }
  if (!tail) return await writeOut(out, `${pending}\n`);
  await writeOut(out, `${pending.slice(0, -2)},\n  ${JSON.stringify(tail.name)}: [`);
  if (tail.count === 0) return await writeOut(out, ']\n}\n');
  await tail.write(out);
  await writeOut(out, '\n  ]\n}\n');
}

/** Options every command has. */
export const COMMON_OPTIONS: Record<string, OptionSpec> = {
  help: { type: 'boolean', short: 'h', description: 'Show this help and exit.' },
};

export const JSON_OPTION: Record<string, OptionSpec> = {
  json: {
    type: 'boolean',
    description: 'Print one JSON document on stdout and nothing else there.',
  },
};

/** A string option's value (the last one when repeated). */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const v = args.values[name];
  if (Array.isArray(v)) return v.length ? String(v[v.length - 1]) : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** A whole-number option's value (> 0), or undefined when not given. */
export function positiveIntOption(args: ParsedArgs, name: string): number | undefined {
  const text = stringOption(args, name);
  if (text === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(text))
    throw new UsageError(`--${name} takes a whole number > 0, got "${text}".`);
  return Number(text);
}

/** A repeatable string option's values, in order. */
export function stringList(args: ParsedArgs, name: string): string[] {
  const v = args.values[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

export function flag(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}

/** A command with its summary: what help and the generated docs show. */
export type DescribedCommand = Command & { summary: string };
