/**
 * The Lua functions every script of `redis_scripts.ts` starts with: lease expiry, the newest
 * entry of a window, pruning a token window, the sum of a scope's budget holds.
 * @module
 */

/** Shared functions, prepended to every script. */
export const LIB = `
local WINDOW = 60000
local EPS = 1e-8
local function chunks(cmd, key, list)
  for i = 1, #list, 1000 do redis.call(cmd, key, unpack(list, i, math.min(i + 999, #list))) end
end
local function expire_leases(live, held, now)
  local gone = redis.call('ZRANGEBYSCORE', live, '-inf', now)
  if #gone > 0 then
    redis.call('ZREMRANGEBYSCORE', live, '-inf', now)
    chunks('HDEL', held, gone)
  end
end
local function newest(z)
  local r = redis.call('ZRANGE', z, -1, -1, 'WITHSCORES')
  if #r == 0 then return nil end
  return tonumber(r[2])
end
-- Drops the tpm entries that left the window; answers the tokens still in it when 'sum'.
local function prune_tokens(z, h, now, sum)
  local gone = redis.call('ZRANGEBYSCORE', z, '-inf', now - WINDOW)
  if #gone == 0 then
    if sum then return tonumber(redis.call('HGET', h, '_sum') or '0') end
    return nil
  end
  local drop = 0
  for i = 1, #gone, 1000 do
    local values = redis.call('HMGET', h, unpack(gone, i, math.min(i + 999, #gone)))
    for j = 1, #values do drop = drop + (tonumber(values[j]) or 0) end
  end
  redis.call('ZREMRANGEBYSCORE', z, '-inf', now - WINDOW)
  if redis.call('ZCARD', z) == 0 then
    redis.call('DEL', h)
    return 0
  end
  chunks('HDEL', h, gone)
  -- HINCRBY refuses the -0 Lua writes for a zero drop (entries of 0 tokens)
  if drop == 0 then
    if sum then return tonumber(redis.call('HGET', h, '_sum') or '0') end
    return nil
  end
  return redis.call('HINCRBY', h, '_sum', -drop)
end
local function held_sum(held)
  local values = redis.call('HVALS', held)
  local sum = 0
  for i = 1, #values do sum = sum + tonumber(values[i]) end
  return sum, #values
end
`;
