/**
 * A script declared with its KEYS and ARGV named gets them in the declared order (the `rest` list
 * last), runs on a Redis that never saw it (NOSCRIPT, then EVAL) and again by its SHA, and its
 * reply comes back parsed.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { defineScript, reply, runScript } from '../../src/redis/index.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const redis = new Redis(TEST_REDIS_URL);
const prefix = uniquePrefix('lua');

afterAll(async () => {
  await deleteKeys(prefix);
  redis.disconnect();
});

// A comment no other script has: its SHA is unknown to Redis until the first EVAL.
const ECHO = defineScript({
  keys: ['first', 'second'],
  args: ['a', 'b'],
  rest: 'more',
  source: `-- ${randomUUID()}
redis.call('SET', KEYS[1], ARGV[1])
return {KEYS[1], KEYS[2], ARGV[1], ARGV[2], #ARGV - 2, 'blocked'}`,
  parse: (value) => {
    const [first, second, a, b, more, word] = reply.list(value);
    return {
      keys: [reply.string(first), reply.string(second)],
      args: [reply.string(a), reply.string(b)],
      more: reply.number(more),
      word: reply.oneOf(['counting', 'blocked'])(word),
    };
  },
});

it('passes named keys and args in declared order, loads on NOSCRIPT, and parses the reply', async () => {
  expect(await redis.script('EXISTS', ECHO.sha)).toEqual([0]);
  const keys = { second: `${prefix}:2`, first: `${prefix}:1` };
  const expected = {
    keys: [`${prefix}:1`, `${prefix}:2`],
    args: ['x', '7'],
    more: 3,
    word: 'blocked',
  };
  expect(await runScript(redis, ECHO, keys, { b: 7, a: 'x', more: [1, 2, 3] })).toEqual(expected);
  expect(await redis.script('EXISTS', ECHO.sha)).toEqual([1]);
  expect(await runScript(redis, ECHO, keys, { a: 'x', b: 7, more: [4, 5, 6] })).toEqual(expected);
  expect(await redis.get(`${prefix}:1`)).toBe('x');
});

it('fails on a reply the script never gives', () => {
  expect(() => reply.oneOf(['counting', 'blocked'])('other')).toThrow(
    /not one of counting, blocked/,
  );
  expect(reply.code(['none', 'send'])(1)).toBe('send');
  expect(() => reply.code(['none', 'send'])(5)).toThrow();
});
