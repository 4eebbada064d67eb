import { defineScript, reply } from '../../redis/index.js';

export interface AddedDeadLetter {
  id: string;
  /** `same`: the same write again (nothing changed); `updated`: the items' open entry. */
  outcome: 'same' | 'updated' | 'new';
  /** The updated entry's JSON before (else ''). */
  before: string;
  /** Ids of older entries holding some of a new entry's items (they lose them). */
  holders: string[];
}

const outcomeOf = reply.code(['same', 'updated', 'new']);

function parseAdded(value: unknown): AddedDeadLetter {
  const [id, outcome, before, ...holders] = reply.list(value);
  return {
    id: reply.string(id),
    outcome: outcomeOf(outcome),
    before: reply.string(before),
    holders: holders.map(reply.string),
  };
}

/**
 * Writes one dead letter (dead-letter-store.ts): `openFields` are the open fields of its items.
 * When every item's open entry is the same one, of these items exactly, it is updated in place:
 * {id, 1, its JSON before} ({id, 0} for the same write again). Otherwise a new entry: {new id,
 * 2, '', ids of older entries holding some of its items}.
 */
export const ADD_DEAD_LETTER = defineScript({
  keys: ['entries', 'index', 'open', 'failures'],
  args: ['newId', 'at', 'writeId', 'entry'],
  rest: 'openFields',
  source: `local n = #ARGV - 4
local current = redis.call('HGET', KEYS[3], ARGV[5])
for i = 6, #ARGV do
  if redis.call('HGET', KEYS[3], ARGV[i]) ~= current then current = false end
end
if current then
  local meta = redis.call('HGET', KEYS[4], current) or ''
  local failures, write, items = string.match(meta, '^(%d+)|([^|]*)|(%d+)$')
  if failures and tonumber(items) == n then
    if write == ARGV[3] then return {current, 0, ''} end
    local before = redis.call('HGET', KEYS[1], current) or ''
    redis.call('HSET', KEYS[1], current, ARGV[4])
    redis.call('HSET', KEYS[4], current, (tonumber(failures) + 1) .. '|' .. ARGV[3] .. '|' .. n)
    redis.call('ZADD', KEYS[2], ARGV[2], current)
    return {current, 1, before}
  end
end
local reply = {ARGV[1], 2, ''}
for i = 5, #ARGV do
  local held = redis.call('HGET', KEYS[3], ARGV[i])
  if held then table.insert(reply, held) end
  redis.call('HSET', KEYS[3], ARGV[i], ARGV[1])
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
redis.call('HSET', KEYS[4], ARGV[1], '1|' .. ARGV[3] .. '|' .. n)
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return reply`,
  parse: parseAdded,
});
