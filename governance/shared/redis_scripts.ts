/**
 * The Lua scripts of `redis_limits.ts`: each runs atomically in Redis, one round trip each.
 *
 * Keys of one scope (key or team), six per scope and always in this order (`P` the prefix,
 * `S` = `key:<id>` or `team:<id>`):
 *
 * | key          | type   | holds                                                            |
 * | ------------ | ------ | ---------------------------------------------------------------- |
 * | `P S:rpm`    | zset   | admission times (member: request id), at most `rpm` newest kept   |
 * | `P S:tpm`    | zset   | `tpm` entries' admission times (member: request id)               |
 * | `P S:tpmt`   | hash   | their tokens (estimate, settled to the real figure), `_sum`       |
 * | `P S:live`   | zset   | requests in flight: member request id, score lease expiry (ms)    |
 * | `P S:held`   | hash   | budget holds: request id → max(reservation, actual) dollars       |
 * | `P S:spent`  | hash   | settled spend: `<period>:<start>` → dollars (one field at a time) |
 * |              |        | and `_at`, when its TTL was last refreshed (`redis_script_lib.ts`) |
 *
 * Windows expire 120 to 150 s after their last write, `live`/`held` a minute after their last
 * lease, `spent` 10 to 12 minutes after its last use (then reloaded from the ledger); the TTLs
 * are refreshed only when due (`redis_script_lib.ts` says why that is safe). A lease that expired
 * takes its budget hold with it (the in-flight count and the hold of a crashed process vanish).
 * Floats given to Redis are passed as the caller's strings (Lua would print 14 digits).
 *
 * Arguments: `ARGV[1]` is the request id, `ARGV[2]` a JSON array of the rest (listed with each
 * script; a string where the script stores the caller's text, a number where it only computes),
 * so a call sends two arguments besides its keys, not twenty: each argument costs the client its
 * own encoding. A script reads what it has already read or written from its own variables
 * instead of asking Redis again (a count, the newest entry of a window).
 * @module
 */
import { LIB } from "./redis_script_lib.ts";

/**
 * Admit (or peek). ARGV[2]: [now, leaseMs, tokens ('-1': not in tpm), reservation, n, peek
 * ('1'), spentTtl], then per scope: rpm, tpm, maxParallel, budget (-1: none), field
 * (period `<period>:<start>`), loaded ('' unless the caller loaded the ledger). Answers JSON:
 * `{load}` (0-based scopes to load), `{r, f}` (refusal [check, scope, wait] and figures) or
 * `{o, f}` (others per scope, -1 none; figures after taking). Figures per scope: [inFlight,
 * count, rpmReset, used, tpmReset, settled, held, holds], -1 where the limit is absent.
 */
export const ADMIT = LIB + `
local id = ARGV[1]
local A = cjson.decode(ARGV[2])
local now = A[1]
local lease = A[2]
local tokens = tonumber(A[3])
local reservation = tonumber(A[4])
local n = A[5]
local spent_ttl = A[7]
local S = {}
local load = {}
for i = 1, n do
  local k = (i - 1) * 6
  local a = 7 + (i - 1) * 6
  local s = { rpm = KEYS[k + 1], tz = KEYS[k + 2], th = KEYS[k + 3], live = KEYS[k + 4],
    held = KEYS[k + 5], spent = KEYS[k + 6], lrpm = tonumber(A[a + 1]),
    ltpm = tonumber(A[a + 2]), lpar = tonumber(A[a + 3]), lbud = tonumber(A[a + 4]),
    field = A[a + 5] }
  expire_leases(s.live, s.held, now)
  if s.lbud >= 0 then
    local settled = spent_get(s.spent, s.field, now, spent_ttl)
    if not settled and A[a + 6] ~= '' then
      -- set-if-absent: the caller loaded the ledger; another period's field goes with it
      redis.call('DEL', s.spent)
      redis.call('HSET', s.spent, s.field, A[a + 6])
      spent_touch(s.spent, nil, now, spent_ttl)
      settled = A[a + 6]
    end
    if settled then
      s.settled = tonumber(settled)
      s.heldsum, s.holds = held_sum(s.held)
    else
      load[#load + 1] = i - 1
    end
  end
  if s.lrpm >= 0 then
    -- the newest entry first: an empty or wholly expired window needs no prune and no count
    local t = newest(s.rpm)
    if t and t > now - WINDOW then
      redis.call('ZREMRANGEBYSCORE', s.rpm, '-inf', now - WINDOW)
      s.trpm = t
    else
      if t then redis.call('DEL', s.rpm) end
      s.trpm, s.nrpm = false, 0
    end
  end
  if s.ltpm >= 0 then prune_tokens(s, now) end
  S[i] = s
end
-- '_sum' left counting pruned entries when no entry of this call writes it
local function put_sums()
  for i = 1, n do put_sum(S[i]) end
end
if #load > 0 then
  put_sums()
  return cjson.encode({ load = load })
end

-- Counts and newest entries, read once and then kept up to date by what this script writes.
local function live_count(s)
  if not s.nlive then s.nlive = redis.call('ZCARD', s.live) end
  return s.nlive
end
local function rpm_count(s)
  if not s.nrpm then s.nrpm = redis.call('ZCARD', s.rpm) end
  return s.nrpm
end
local function rpm_newest(s)
  if s.trpm == nil then s.trpm = newest(s.rpm) or false end
  return s.trpm or nil
end
local function tpm_newest(s)
  return s.ttpm or nil
end

local function figures()
  local out = {}
  for i = 1, n do
    local s = S[i]
    local f = { live_count(s), -1, -1, -1, -1, -1, -1, -1 }
    if s.lrpm >= 0 then
      f[2] = rpm_count(s)
      local t = rpm_newest(s)
      f[3] = t and t + WINDOW or now
    end
    if s.ltpm >= 0 then
      f[4] = s.used
      local t = tpm_newest(s)
      f[5] = t and t + WINDOW or now
    end
    if s.lbud >= 0 then f[6], f[7], f[8] = s.settled, s.heldsum, s.holds end
    out[i] = f
  end
  return out
end
if A[6] == '1' then
  put_sums()
  return cjson.encode({ o = {}, f = figures() })
end

local function tpm_wait(s)
  if tokens > s.ltpm then return -1 end
  local excess = s.used + tokens - s.ltpm
  if excess <= 0 then return 0 end
  local r = redis.call('ZRANGE', s.tz, 0, -1, 'WITHSCORES')
  for j = 1, #r, 2 do
    excess = excess - tonumber(redis.call('HGET', s.th, r[j]) or '0')
    if excess <= 0 then return tonumber(r[j + 1]) + WINDOW - now end
  end
  return WINDOW
end

local function refusal()
  for i = 1, n do
    local s = S[i]
    if s.lbud >= 0 and s.settled + s.heldsum + reservation > s.lbud + EPS then
      return { 'budget', i - 1, 0 }
    end
  end
  for i = 1, n do
    local s = S[i]
    if s.lpar >= 0 and live_count(s) >= s.lpar then return { 'parallel', i - 1, 0 } end
  end
  for i = 1, n do
    local s = S[i]
    if s.lrpm >= 0 then
      local count = rpm_count(s)
      if count >= s.lrpm then
        local r = redis.call('ZRANGE', s.rpm, count - s.lrpm, count - s.lrpm, 'WITHSCORES')
        local wait = tonumber(r[2]) + WINDOW - now
        if wait > 0 then return { 'rpm', i - 1, wait } end
      end
    end
  end
  for i = 1, n do
    local s = S[i]
    if s.ltpm >= 0 and tokens >= 0 then
      local wait = tpm_wait(s)
      if wait ~= 0 then return { 'tpm', i - 1, wait } end
    end
  end
  return nil
end
local refused = refusal()
if refused then
  put_sums()
  return cjson.encode({ r = refused, f = figures() })
end

local others = {}
for i = 1, n do
  local s = S[i]
  local added = redis.call('ZADD', s.live, now + lease, id)
  if s.nlive then s.nlive = s.nlive + added end
  redis.call('PEXPIRE', s.live, lease + WINDOW)
  if s.lrpm >= 0 then
    local prev = rpm_newest(s)
    local t = math.max(now, prev or now)
    -- the count is known (the rpm check read it): trim only past the limit
    local count = rpm_count(s) + redis.call('ZADD', s.rpm, t, id)
    if count > s.lrpm then
      count = count - redis.call('ZREMRANGEBYRANK', s.rpm, 0, -(s.lrpm + 1))
    end
    s.nrpm = count
    -- the entry just added is the newest (its time is at least every other's) and is kept
    -- whenever the window keeps any
    if s.lrpm >= 1 then s.trpm = t else s.trpm = nil end
    refresh_window(prev, t, s.rpm)
  end
  if s.ltpm >= 0 and tokens >= 0 then
    local prev = tpm_newest(s)
    local t = math.max(now, prev or now)
    redis.call('ZADD', s.tz, t, id)
    s.ttpm = t
    s.used = s.used + tokens
    redis.call('HSET', s.th, id, A[3], '_sum', int(s.used))
    s.dirty = false
    refresh_window(prev, t, s.tz, s.th)
  end
  put_sum(s)
  if s.lbud >= 0 then
    others[i] = s.settled + s.heldsum
    redis.call('HSET', s.held, id, A[4])
    redis.call('PEXPIRE', s.held, lease + WINDOW)
    s.heldsum = s.heldsum + reservation
    s.holds = s.holds + 1
  else
    others[i] = -1
  end
end
return cjson.encode({ o = others, f = figures() })
`;

/** Release. ARGV[2]: [now, tokens, cost, n, spentTtl], then per scope: tpm ('1'), field (''
 * when no budget). The cost is added to the period's settled spend when it is loaded. */
export const RELEASE = LIB + `
local id = ARGV[1]
local A = cjson.decode(ARGV[2])
local now = A[1]
local tokens = tonumber(A[2])
local n = A[4]
for i = 1, n do
  local k = (i - 1) * 6
  local a = 5 + (i - 1) * 2
  redis.call('ZREM', KEYS[k + 4], id)
  local field = A[a + 2]
  if field ~= '' then
    redis.call('HDEL', KEYS[k + 5], id)
    if spent_get(KEYS[k + 6], field, now, A[5]) then
      redis.call('HINCRBYFLOAT', KEYS[k + 6], field, A[3])
    end
  end
  if A[a + 1] == '1' then
    -- No prune here: every reader of the window (admit, peek) prunes first, and an expired
    -- entry settled here leaves with its settled tokens at that prune, so '_sum' after it is
    -- what pruning first would have left. An entry already pruned is absent: nothing to do.
    local v = redis.call('HMGET', KEYS[k + 3], id, '_sum')
    if v[1] then
      local sum = tonumber(v[2] or '0') + tokens - tonumber(v[1])
      redis.call('HSET', KEYS[k + 3], id, A[2], '_sum', int(sum))
    end
  end
end
return 1
`;

/** Flow. ARGV[2]: [now, actual, n, spentTtl], then per scope: field. Raises the hold to
 * `actual` when above it; answers JSON [others per scope] (-1: settled not loaded). */
export const FLOW = LIB + `
local id = ARGV[1]
local A = cjson.decode(ARGV[2])
local now = A[1]
local actual = tonumber(A[2])
local n = A[3]
local others = {}
for i = 1, n do
  local k = (i - 1) * 6
  expire_leases(KEYS[k + 4], KEYS[k + 5], now)
  local cur = redis.call('HGET', KEYS[k + 5], id)
  if cur and actual > tonumber(cur) then
    redis.call('HSET', KEYS[k + 5], id, A[2])
    cur = A[2]
  end
  local settled = spent_get(KEYS[k + 6], A[4 + i], now, A[4])
  if settled then
    others[i] = tonumber(settled) + held_sum(KEYS[k + 5]) - (tonumber(cur) or 0)
  else
    others[i] = -1
  end
end
return cjson.encode(others)
`;

/** Renew. KEYS: `live` and `held` of each (hold, scope) pair; ARGV[1]: JSON [now, expiry, ttl,
 * then the request id of each pair]. Extends a lease still live at `now`; one that ran out stays
 * out even before an admission prunes it (ZADD XX alone would bring it back). */
export const RENEW = `
local A = cjson.decode(ARGV[1])
local now, expiry, ttl = A[1], A[2], A[3]
for i = 1, #KEYS / 2 do
  local live, held, id = KEYS[2 * i - 1], KEYS[2 * i], A[3 + i]
  local score = redis.call('ZSCORE', live, id)
  if score and tonumber(score) > now then
    redis.call('ZADD', live, expiry, id)
    redis.call('PEXPIRE', live, ttl)
    redis.call('PEXPIRE', held, ttl)
  end
end
return 1
`;
