/**
 * Ferry's Lua scripts. Each is declared once, in a `scripts/` folder of the layer that runs it
 * (docs/ARCHITECTURE.md, Lua scripts), with its KEYS and ARGV named in order and a parser that
 * turns Redis's reply into a typed result; callers pass named objects, never positional arrays.
 * A script whose ARGV ends with a list (field/value pairs, item triples) names it `rest`.
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from './connection.js';

/** A script's argument: binary values (compressed payloads) go as Buffers. */
type Arg = string | number | Buffer;

export interface LuaScript<
  K extends string = string,
  A extends string = string,
  R = unknown,
  Rest extends string = never,
> {
  readonly source: string;
  readonly sha: string;
  /** KEYS[1], KEYS[2], … by name. */
  readonly keys: readonly K[];
  /** ARGV[1], ARGV[2], … by name; the `rest` list follows them. */
  readonly args: readonly A[];
  readonly rest?: Rest;
  readonly parse: (reply: unknown) => R;
}

export function defineScript<
  const K extends string,
  const A extends string,
  R,
  const Rest extends string = never,
>(definition: {
  keys: readonly K[];
  args: readonly A[];
  rest?: Rest;
  source: string;
  parse: (reply: unknown) => R;
}): LuaScript<K, A, R, Rest> {
  return { ...definition, sha: createHash('sha1').update(definition.source).digest('hex') };
}

/** The ARGV of a script by name: its own arguments, and the `rest` list when it has one. */
type ScriptArgs<A extends string, Rest extends string> = Record<A, Arg> &
  Record<Rest, readonly Arg[]>;

/** EVALSHA, loading the script on NOSCRIPT (a restarted or new Redis); the parsed reply. */
export async function runScript<K extends string, A extends string, R, Rest extends string>(
  redis: RedisClient,
  script: LuaScript<K, A, R, Rest>,
  keys: Record<K, string>,
  args: ScriptArgs<A, Rest>,
): Promise<R> {
  const keyList = script.keys.map((name) => keys[name]);
  const argList: Arg[] = script.args.map((name) => args[name]);
  if (script.rest !== undefined) argList.push(...args[script.rest]);
  return script.parse(await runLua(redis, script, keyList, argList));
}

/** EVALSHA of a script's positional KEYS and ARGV, with EVAL on NOSCRIPT. */
async function runLua(
  redis: RedisClient,
  script: { source: string; sha: string },
  keys: readonly string[],
  args: readonly Arg[],
): Promise<unknown> {
  try {
    return await redis.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    // A Redis error reply has no code but its first word (ioredis ReplyError).
    if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
    return await redis.eval(script.source, keys.length, ...keys, ...args);
  }
}

/** One of a script's known words (a bug in the script when it is none of them). */
function oneOf<const W extends string>(words: readonly W[]): (value: unknown) => W {
  return (value) => {
    const word = words.find((w) => w === value);
    if (word === undefined) {
      throw new Error(`script replied ${String(value)}, not one of ${words.join(', ')}`);
    }
    return word;
  };
}

/** Reply parsers: Redis answers Lua numbers as integers, tables as arrays, strings as strings. */
export const reply = {
  /** 1 for yes, 0 (or anything else) for no. */
  flag: (value: unknown): boolean => value === 1,
  number: (value: unknown): number => Number(value),
  /** A table reply, its items left to the script's own parser. */
  list: (value: unknown): unknown[] => (Array.isArray(value) ? value : []),
  string: (value: unknown): string => (value === null || value === undefined ? '' : String(value)),
  oneOf,
  /** The word a script's numeric code stands for: `words[code]`. */
  code:
    <const W extends string>(words: readonly W[]) =>
    (value: unknown): W =>
      oneOf(words)(words[Number(value)]),
  /** A reply nobody reads (the scripts that return 0 or 1 regardless). */
  none: (): void => undefined,
};
