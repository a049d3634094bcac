/**
 * The Lua scripts of the Redis event log: each change of the log (prime, append with its
 * evictions, forget) and each replay runs as one script, so that concurrent replicas never
 * see a half-made change and the byte budgets hold whatever the interleaving.
 *
 * Keys, under the store's prefix `P`:
 * - `P e:seq`: the global order of appends (eviction order, oldest first);
 * - `P e:m:<stream>`: the stream's hash: `owner`, `next` (its next event number), `dropped`
 *   (the highest event number dropped or never kept, -1 when none);
 * - `P e:s:<stream>`: the stream's kept events, a Redis stream whose entry `<number>-1`
 *   holds the event's data in its field `d` (`XADD` in order, `XRANGE` for a replay, `XDEL`
 *   to evict one: `-1` because a stream's ids start above `0-0`);
 * - `P e:all`, `P e:o:<owner>`: every kept event, and an owner's, as `<stream>/<number>` by global order;
 * - `P e:sz`: each kept event's size, by `<stream>/<number>` (what its eviction gives back);
 * - `P e:bytes`, `P e:ob:<owner>`: the bytes kept in all and by an owner.
 * A stream's keys and its owner's expire after `ttlMs` without an append (the session is long
 * gone); what they held in the global order is evicted by size like any other event.
 * The keys are built inside the scripts from the prefix: on Redis Cluster give a prefix with a
 * hash tag (`{emcp}:`) so that they share one slot.
 *
 * @example
 * import { appendScript } from './redis-scripts.js'
 * // client.eval(appendScript, { keys: [], arguments: [prefix, streamId, data, maxBytes, maxSessionBytes, ttlMs, overhead] })
 */

/** Shared helpers: dropping one kept event, and refreshing a stream's keys' time to live. */
const common = `
local P = ARGV[1]
local function drop(member)
  local slash = string.find(member, '/[^/]*$')
  local sid = string.sub(member, 1, slash - 1)
  local n = string.sub(member, slash + 1)
  local meta = P .. 'e:m:' .. sid
  local size = tonumber(redis.call('HGET', P .. 'e:sz', member) or '0')
  local owner = redis.call('HGET', meta, 'owner')
  redis.call('HDEL', P .. 'e:sz', member)
  redis.call('XDEL', P .. 'e:s:' .. sid, n .. '-1')
  redis.call('ZREM', P .. 'e:all', member)
  redis.call('DECRBY', P .. 'e:bytes', size)
  if owner then
    redis.call('ZREM', P .. 'e:o:' .. owner, member)
    if redis.call('EXISTS', P .. 'e:ob:' .. owner) == 1 then redis.call('DECRBY', P .. 'e:ob:' .. owner, size) end
    if tonumber(redis.call('HGET', meta, 'dropped')) < tonumber(n) then redis.call('HSET', meta, 'dropped', n) end
  end
end
`

/** prime(P, stream, owner, ttlMs): the id of the stream's priming event (its number 0, or the next one when primed again). */
export const primeScript = `
local P = ARGV[1]
local sid = ARGV[2]
local meta = P .. 'e:m:' .. sid
if redis.call('EXISTS', meta) == 0 then redis.call('HSET', meta, 'owner', ARGV[3], 'next', 0, 'dropped', -1) end
local n = redis.call('HINCRBY', meta, 'next', 1) - 1
redis.call('PEXPIRE', meta, ARGV[4])
return sid .. '/' .. n
`

/** append(P, stream, data, maxBytes, maxSessionBytes, ttlMs, overhead): the event's id; the oldest events of its owner, then of all, make room. */
export const appendScript = `${common}
local sid = ARGV[2]
local payload = ARGV[3]
local maxBytes = tonumber(ARGV[4])
local maxSession = tonumber(ARGV[5])
local ttl = ARGV[6]
local overhead = tonumber(ARGV[7])
local meta = P .. 'e:m:' .. sid
if redis.call('EXISTS', meta) == 0 then redis.call('HSET', meta, 'owner', sid, 'next', 0, 'dropped', -1) end
local owner = redis.call('HGET', meta, 'owner')
local n = redis.call('HINCRBY', meta, 'next', 1) - 1
local id = sid .. '/' .. n
local size = string.len(payload) + overhead
local keys = { meta, P .. 'e:s:' .. sid, P .. 'e:o:' .. owner, P .. 'e:ob:' .. owner }
if size > maxSession or size > maxBytes then
  -- sent, never kept: a replay from before it is refused
  redis.call('HSET', meta, 'dropped', n)
else
  local ownerBytes = P .. 'e:ob:' .. owner
  while tonumber(redis.call('GET', ownerBytes) or '0') + size > maxSession do
    local oldest = redis.call('ZRANGE', P .. 'e:o:' .. owner, 0, 0)[1]
    if not oldest then break end
    drop(oldest)
  end
  while tonumber(redis.call('GET', P .. 'e:bytes') or '0') + size > maxBytes do
    local oldest = redis.call('ZRANGE', P .. 'e:all', 0, 0)[1]
    if not oldest then break end
    drop(oldest)
  end
  local order = redis.call('INCR', P .. 'e:seq')
  redis.call('XADD', P .. 'e:s:' .. sid, n .. '-1', 'd', payload)
  redis.call('ZADD', P .. 'e:all', order, id)
  redis.call('ZADD', P .. 'e:o:' .. owner, order, id)
  redis.call('HSET', P .. 'e:sz', id, size)
  redis.call('INCRBY', ownerBytes, size)
  redis.call('INCRBY', P .. 'e:bytes', size)
end
for _, k in ipairs(keys) do redis.call('PEXPIRE', k, ttl) end
return id
`

/**
 * after(P, stream, number): `{ events... }` as a flat list [n1, data1, n2, data2, ...] after
 * the number, or false when the id was never given out or an event after it was dropped.
 */
export const afterScript = `
local P = ARGV[1]
local sid = ARGV[2]
local n = tonumber(ARGV[3])
local meta = P .. 'e:m:' .. sid
local state = redis.call('HMGET', meta, 'next', 'dropped')
if not state[1] then return false end
if n >= tonumber(state[1]) or tonumber(state[2]) > n then return false end
-- the entries from the next number on: ids are <number>-1, so <n+1>-0 is the first after n
local later = redis.call('XRANGE', P .. 'e:s:' .. sid, (n + 1) .. '-0', '+')
local out = {}
for _, entry in ipairs(later) do
  table.insert(out, string.sub(entry[1], 1, -3))
  table.insert(out, entry[2][2])
end
return out
`

/** forget(P, stream): drops the stream's kept events and its keys. */
export const forgetScript = `${common}
local sid = ARGV[2]
local meta = P .. 'e:m:' .. sid
for _, entry in ipairs(redis.call('XRANGE', P .. 'e:s:' .. sid, '-', '+')) do drop(sid .. '/' .. string.sub(entry[1], 1, -3)) end
redis.call('DEL', meta, P .. 'e:s:' .. sid)
return 1
`
