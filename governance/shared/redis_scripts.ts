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
 *
 * Windows expire 120 s after their last write, `live`/`held` a minute after their last lease,
 * `spent` after `spentTtl` without use (then reloaded from the ledger). A lease that expired
 * takes its budget hold with it (the in-flight count and the hold of a crashed process vanish).
 * Floats given to Redis are passed as the caller's strings (Lua would print 14 digits).
 * @module
 */

/** Shared functions, prepended to every script. */
const LIB = `
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
local function prune_tokens(z, h, now)
  local gone = redis.call('ZRANGEBYSCORE', z, '-inf', now - WINDOW)
  if #gone == 0 then return tonumber(redis.call('HGET', h, '_sum') or '0') end
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
  return redis.call('HINCRBY', h, '_sum', -drop)
end
local function held_sum(held)
  local values = redis.call('HVALS', held)
  local sum = 0
  for i = 1, #values do sum = sum + tonumber(values[i]) end
  return sum, #values
end
`;

/**
 * Admit (or peek). ARGV: now, id, leaseMs, tokens (-1: not in tpm), reservation, n, peek
 * ('1'), spentTtl; then per scope: rpm, tpm, maxParallel, budget (-1: none), field (period
 * `<period>:<start>`), loaded ('' unless the caller loaded the ledger). Answers JSON:
 * `{load}` (0-based scopes to load), `{r, f}` (refusal [check, scope, wait] and figures) or
 * `{o, f}` (others per scope, -1 none; figures after taking). Figures per scope: [inFlight,
 * count, rpmReset, used, tpmReset, settled, held, holds], -1 where the limit is absent.
 */
export const ADMIT = LIB + `
local now = tonumber(ARGV[1])
local id = ARGV[2]
local lease = tonumber(ARGV[3])
local tokens = tonumber(ARGV[4])
local reservation = tonumber(ARGV[5])
local n = tonumber(ARGV[6])
local spent_ttl = tonumber(ARGV[8])
local S = {}
local load = {}
for i = 1, n do
  local k = (i - 1) * 6
  local a = 8 + (i - 1) * 6
  local s = { rpm = KEYS[k + 1], tz = KEYS[k + 2], th = KEYS[k + 3], live = KEYS[k + 4],
    held = KEYS[k + 5], spent = KEYS[k + 6], lrpm = tonumber(ARGV[a + 1]),
    ltpm = tonumber(ARGV[a + 2]), lpar = tonumber(ARGV[a + 3]), lbud = tonumber(ARGV[a + 4]),
    field = ARGV[a + 5] }
  expire_leases(s.live, s.held, now)
  if s.lbud >= 0 then
    local settled = redis.call('HGET', s.spent, s.field)
    if not settled and ARGV[a + 6] ~= '' then
      -- set-if-absent: the caller loaded the ledger; another period's field goes with it
      redis.call('DEL', s.spent)
      redis.call('HSET', s.spent, s.field, ARGV[a + 6])
      settled = ARGV[a + 6]
    end
    if settled then
      s.settled = tonumber(settled)
      s.heldsum, s.holds = held_sum(s.held)
      redis.call('PEXPIRE', s.spent, spent_ttl)
    else
      load[#load + 1] = i - 1
    end
  end
  if s.lrpm >= 0 then redis.call('ZREMRANGEBYSCORE', s.rpm, '-inf', now - WINDOW) end
  if s.ltpm >= 0 then s.used = prune_tokens(s.tz, s.th, now) end
  S[i] = s
end
if #load > 0 then return cjson.encode({ load = load }) end

local function figures()
  local out = {}
  for i = 1, n do
    local s = S[i]
    local f = { redis.call('ZCARD', s.live), -1, -1, -1, -1, -1, -1, -1 }
    if s.lrpm >= 0 then
      f[2] = redis.call('ZCARD', s.rpm)
      local t = newest(s.rpm)
      f[3] = t and t + WINDOW or now
    end
    if s.ltpm >= 0 then
      f[4] = s.used
      local t = newest(s.tz)
      f[5] = t and t + WINDOW or now
    end
    if s.lbud >= 0 then f[6], f[7], f[8] = s.settled, s.heldsum, s.holds end
    out[i] = f
  end
  return out
end
if ARGV[7] == '1' then return cjson.encode({ o = {}, f = figures() }) end

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
    if s.lpar >= 0 and redis.call('ZCARD', s.live) >= s.lpar then return { 'parallel', i - 1, 0 } end
  end
  for i = 1, n do
    local s = S[i]
    if s.lrpm >= 0 then
      local count = redis.call('ZCARD', s.rpm)
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
if refused then return cjson.encode({ r = refused, f = figures() }) end

local others = {}
for i = 1, n do
  local s = S[i]
  redis.call('ZADD', s.live, now + lease, id)
  redis.call('PEXPIRE', s.live, lease + WINDOW)
  if s.lrpm >= 0 then
    redis.call('ZADD', s.rpm, math.max(now, newest(s.rpm) or now), id)
    redis.call('ZREMRANGEBYRANK', s.rpm, 0, -(s.lrpm + 1))
    redis.call('PEXPIRE', s.rpm, 2 * WINDOW)
  end
  if s.ltpm >= 0 and tokens >= 0 then
    redis.call('ZADD', s.tz, math.max(now, newest(s.tz) or now), id)
    redis.call('HSET', s.th, id, ARGV[4])
    s.used = redis.call('HINCRBY', s.th, '_sum', tokens)
    redis.call('PEXPIRE', s.tz, 2 * WINDOW)
    redis.call('PEXPIRE', s.th, 2 * WINDOW)
  end
  if s.lbud >= 0 then
    others[i] = s.settled + s.heldsum
    redis.call('HSET', s.held, id, ARGV[5])
    redis.call('PEXPIRE', s.held, lease + WINDOW)
    s.heldsum = s.heldsum + reservation
    s.holds = s.holds + 1
  else
    others[i] = -1
  end
end
return cjson.encode({ o = others, f = figures() })
`;

/** Release. ARGV: now, id, tokens, cost, n, spentTtl; per scope: tpm ('1'), field ('' when no
 * budget). The cost is added to the period's settled spend when it is loaded. */
export const RELEASE = LIB + `
local now = tonumber(ARGV[1])
local id = ARGV[2]
local tokens = tonumber(ARGV[3])
local n = tonumber(ARGV[5])
for i = 1, n do
  local k = (i - 1) * 6
  local a = 6 + (i - 1) * 2
  redis.call('ZREM', KEYS[k + 4], id)
  local field = ARGV[a + 2]
  if field ~= '' then
    redis.call('HDEL', KEYS[k + 5], id)
    if redis.call('HEXISTS', KEYS[k + 6], field) == 1 then
      redis.call('HINCRBYFLOAT', KEYS[k + 6], field, ARGV[4])
      redis.call('PEXPIRE', KEYS[k + 6], tonumber(ARGV[6]))
    end
  end
  if ARGV[a + 1] == '1' then
    prune_tokens(KEYS[k + 2], KEYS[k + 3], now)
    local old = redis.call('HGET', KEYS[k + 3], id)
    if old then
      redis.call('HSET', KEYS[k + 3], id, ARGV[3])
      redis.call('HINCRBY', KEYS[k + 3], '_sum', tokens - tonumber(old))
    end
  end
end
return 1
`;

/** Flow. ARGV: now, id, actual, n, spentTtl; per scope: field. Raises the hold to `actual`
 * when above it; answers JSON [others per scope] (-1: settled not loaded). */
export const FLOW = LIB + `
local now = tonumber(ARGV[1])
local id = ARGV[2]
local actual = tonumber(ARGV[3])
local n = tonumber(ARGV[4])
local others = {}
for i = 1, n do
  local k = (i - 1) * 6
  expire_leases(KEYS[k + 4], KEYS[k + 5], now)
  local cur = redis.call('HGET', KEYS[k + 5], id)
  if cur and actual > tonumber(cur) then
    redis.call('HSET', KEYS[k + 5], id, ARGV[3])
    cur = ARGV[3]
  end
  local settled = redis.call('HGET', KEYS[k + 6], ARGV[5 + i])
  if settled then
    others[i] = tonumber(settled) + held_sum(KEYS[k + 5]) - (tonumber(cur) or 0)
    redis.call('PEXPIRE', KEYS[k + 6], tonumber(ARGV[5]))
  else
    others[i] = -1
  end
end
return cjson.encode(others)
`;
