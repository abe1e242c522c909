/**
 * The Lua functions every script of `redis_scripts.ts` starts with: lease expiry, the newest
 * entry of a window, pruning a token window, TTL refreshes that skip the calls not needed.
 *
 * Window TTLs. A window key (`rpm`, `tpm`, `tpmt`) gets `WINDOW_TTL` (2 windows + 30 s) only when
 * an entry is written while the window was empty or with a time in a newer 30 s step than the
 * newest entry before it (`new_step`), not at every write. Why that is as safe as the
 * former 2 windows after every write: entry times only grow within a window (each is at least
 * the newest before it), so by induction the newest entry `n` of a live window is in the same
 * step as the entry `r` of the last refresh: `n < r + 30 s`. An entry matters until a clock
 * reads `n + 1 window`. A time is at most `d` ahead of real time (clock skew), so `r` was
 * written at real time `>= r - d` and the key lives until real time `>= r - d + 2 windows +
 * 30 s > n - d + 2 windows`, when every clock reads `> n - 2d + 2 windows >= n + 1 window`
 * while `d <= 30 s`: the tolerance of the former TTL (2 windows from a write of time `n <= real
 * + d`). An empty window (all pruned, or trimmed at rpm 0) is deleted by Redis, so the next write
 * refreshes.
 *
 * Spent TTL. `spent` keeps `_at`, the time of its last TTL refresh, and is refreshed (to the
 * caller's `spentTtl` + 2 minutes) only when `_at` is absent, ahead of `now` or a minute old
 * (`spent_touch`). A use at `now < _at + 1 min` without refresh comes, skew `d` allowed, at most
 * `1 min + 2d` after the refresh, which left `spentTtl + 2 min`: the key still lives `spentTtl`
 * after every use while `d <= 30 s`, so it never expires sooner than with a refresh per use
 * (settled spend is never dropped earlier and reloaded from a ledger that may lag); it may
 * outlive that by up to 2 minutes, holding the same settled figure.
 * @module
 */

/** Shared functions, prepended to every script. */
export const LIB = `
local WINDOW = 60000
local STEP = 30000
local WINDOW_TTL = 2 * WINDOW + STEP
local SPENT_EVERY = 60000
local EPS = 1e-8
local function int(x) return string.format('%d', x) end
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
-- Whether writing an entry of time t into a window whose newest entry was prev (nil: empty)
-- refreshes the window's TTL.
local function new_step(prev, t)
  return not (prev and math.floor(prev / STEP) == math.floor(t / STEP))
end
-- Prunes a tpm window, its newest entry read first (the admission needs it anyway): sets
-- s.ttpm (newest, false when empty), s.used (tokens left) and s.dirty when the stored '_sum'
-- still counts pruned entries (written back with the next entry, or by put_sum).
local function prune_tokens(s, now)
  local t = newest(s.tz)
  if t and t <= now - WINDOW then redis.call('DEL', s.tz, s.th) end
  if not t or t <= now - WINDOW then
    s.ttpm, s.used = false, 0
    return
  end
  s.ttpm = t
  local gone = redis.call('ZRANGEBYSCORE', s.tz, '-inf', now - WINDOW)
  if #gone == 0 then
    s.used = tonumber(redis.call('HGET', s.th, '_sum') or '0')
    return
  end
  local sum, drop = nil, 0
  for i = 1, #gone, 1000 do
    local values = redis.call('HMGET', s.th, '_sum', unpack(gone, i, math.min(i + 999, #gone)))
    sum = sum or tonumber(values[1] or '0')
    for j = 2, #values do drop = drop + (tonumber(values[j]) or 0) end
  end
  redis.call('ZREMRANGEBYSCORE', s.tz, '-inf', now - WINDOW)
  chunks('HDEL', s.th, gone)
  s.used = sum - drop
  s.dirty = drop ~= 0
end
local function put_sum(s)
  if s.dirty then redis.call('HSET', s.th, '_sum', int(s.used)) end
  s.dirty = false
end
-- Answers '_at' after the call.
local function spent_touch(key, at, now, ttl)
  at = tonumber(at)
  if at and now >= at and now < at + SPENT_EVERY then return at end
  redis.call('HSET', key, '_at', int(now))
  redis.call('PEXPIRE', key, ttl + 2 * SPENT_EVERY)
  return now
end
-- The settled spend of field (nil when not loaded), its TTL refreshed when due.
local function spent_get(key, field, now, ttl)
  local v = redis.call('HMGET', key, field, '_at')
  if v[1] then spent_touch(key, v[2], now, ttl) end
  return v[1]
end
local function held_sum(held)
  local values = redis.call('HVALS', held)
  local sum = 0
  for i = 1, #values do sum = sum + tonumber(values[i]) end
  return sum, #values
end
`;
