/**
 * The admission script of `redis_limits.ts`: every admission (or peek) one gateway process made
 * in one turn of its event loop, in one atomic call, each answered as if it had been a call of
 * its own in that order. At c=32 a turn holds about seven admissions of the same key and team,
 * and one call per admission cost Redis about 48 commands a request (each `redis.call` from Lua
 * costs more than the command itself).
 *
 * What a batch saves, and why each answer stays the one a call of its own would have got:
 * - **Reads once per clock reading.** A scope's leases are expired and its windows pruned at a
 *   request's `now`; a later request of the batch at the same or an earlier `now` finds nothing
 *   more to expire or prune, so it reuses what the script already knows: the counts, the newest
 *   entries, the settled spend and the holds, which the script keeps up to date with its own
 *   writes. A later `now` reads again, and so does one that a lease or window entry the batch
 *   wrote has already passed (a clock that went back by more than a lease or a window).
 * - **Writes merged.** A scope's writes (lease, window entries, tokens, holds) wait in lists and
 *   go out as one ZADD or HSET per key, before anything reads that scope from Redis again and
 *   at the end.
 * - **Hold ids are new.** The governor makes one per admission (`shared_governor.ts`: the
 *   request id, which a client may choose, made unique) and sends it again only after a "load"
 *   reply, which took nothing; the batcher never puts one id twice in a batch. So every entry a
 *   request writes is counted as added.
 *
 * KEYS: six per scope of the batch (`redis_scripts.ts` has the layout). ARGV[1]: JSON
 * `[spentTtl, request, ...]`, a request `[id, now, leaseMs, tokens ('-1': not in tpm),
 * reservation, peek ('1'), scopes]`, a scope `[index (1-based, into the KEYS' scopes), rpm, tpm,
 * maxParallel, budget (-1: none), field (period `<period>:<start>`), loaded ('' unless the caller
 * loaded the ledger)]`. Answers a JSON array, one reply per request: `{load}` (0-based scopes of
 * the request to load), `{r, f}` (refusal [check, scope, wait] and figures) or `{o, f}` (others
 * per scope, -1 none; figures after taking). Figures per scope: [inFlight, count, rpmReset,
 * used, tpmReset, settled, held, holds], -1 where the limit is absent.
 * @module
 */
import { LIB } from "./redis_script_lib.ts";

/** See the module doc. */
export const ADMIT = LIB + `
local A = cjson.decode(ARGV[1])
local spent_ttl = A[1]
local S = {}
for j = 1, #KEYS / 6 do
  local k = (j - 1) * 6
  S[j] = { rpm = KEYS[k + 1], tz = KEYS[k + 2], th = KEYS[k + 3], live = KEYS[k + 4],
    held = KEYS[k + 5], spent = KEYS[k + 6], wlive = {}, wrpm = {}, wtz = {}, wth = {},
    wheld = {} }
end

-- The scope's waiting writes, sent; before anything reads the scope from Redis, and at the end.
local function flush(s)
  if #s.wlive > 0 then chunks('ZADD', s.live, s.wlive) s.wlive = {} end
  if s.xlive then redis.call('PEXPIRE', s.live, s.xlive) s.xlive = nil end
  if #s.wrpm > 0 then chunks('ZADD', s.rpm, s.wrpm) s.wrpm = {} end
  if s.xrpm then redis.call('PEXPIRE', s.rpm, WINDOW_TTL) s.xrpm = nil end
  if #s.wtz > 0 then chunks('ZADD', s.tz, s.wtz) s.wtz = {} end
  -- '_sum' goes with the entries, or alone when a prune left it counting pruned ones
  if #s.wth > 0 or s.dirty then
    s.wth[#s.wth + 1] = '_sum'
    s.wth[#s.wth + 1] = int(s.used)
    chunks('HSET', s.th, s.wth)
    s.wth, s.dirty = {}, false
  end
  if s.xtz then
    redis.call('PEXPIRE', s.tz, WINDOW_TTL)
    redis.call('PEXPIRE', s.th, WINDOW_TTL)
    s.xtz = nil
  end
  if #s.wheld > 0 then chunks('HSET', s.held, s.wheld) s.wheld = {} end
  if s.xheld then redis.call('PEXPIRE', s.held, s.xheld) s.xheld = nil end
end

-- Leases expired at now (again only for a later now, or one past a lease this batch wrote).
local function leases_at(s, now)
  if s.tlive and now <= s.tlive and now < s.minlease then return end
  flush(s)
  s.tlive, s.minlease = now, math.huge
  local gone = redis.call('ZRANGEBYSCORE', s.live, '-inf', now)
  if #gone > 0 then
    redis.call('ZREMRANGEBYSCORE', s.live, '-inf', now)
    chunks('HDEL', s.held, gone)
    if s.nlive then s.nlive = s.nlive - #gone end
    s.heldsum = nil
  end
end

-- The settled spend of field (false when not loaded), loading it when the caller did; its
-- TTL refreshed when due (once per clock reading: a second touch at one now does nothing).
local function settled_of(s, field, now, loaded)
  if s.sfield ~= field then
    local v = redis.call('HMGET', s.spent, field, '_at')
    s.sfield, s.sval, s.sat, s.snow = field, v[1], v[2], nil
  end
  if s.sval then
    if s.snow ~= now then
      s.sat, s.snow = spent_touch(s.spent, s.sat, now, spent_ttl), now
    end
  elseif loaded ~= '' then
    -- set-if-absent: the caller loaded the ledger; another period's field goes with it
    redis.call('DEL', s.spent)
    redis.call('HSET', s.spent, field, loaded)
    s.sat = spent_touch(s.spent, nil, now, spent_ttl)
    s.sval, s.snow = loaded, now
  end
  return s.sval
end

local function held_of(s)
  if not s.heldsum then
    flush(s)
    s.heldsum, s.holds = held_sum(s.held)
  end
end

-- The rpm window pruned at now; the newest entry read first: an empty or wholly expired window
-- needs no prune and no count.
local function rpm_at(s, now)
  if s.trpm_at and now <= s.trpm_at and now - WINDOW < s.minrpm then return end
  flush(s)
  s.trpm_at, s.minrpm = now, math.huge
  local t = newest(s.rpm)
  if t and t > now - WINDOW then
    local removed = redis.call('ZREMRANGEBYSCORE', s.rpm, '-inf', now - WINDOW)
    if s.nrpm then s.nrpm = s.nrpm - removed end
    s.trpm = t
  else
    if t then redis.call('DEL', s.rpm) end
    s.trpm, s.nrpm = false, 0
  end
end

local function tpm_at(s, now)
  if s.ttpm_at and now <= s.ttpm_at and now - WINDOW < s.mintpm then return end
  flush(s)
  s.ttpm_at, s.mintpm = now, math.huge
  prune_tokens(s, now)
end

local function live_count(s)
  if not s.nlive then
    flush(s)
    s.nlive = redis.call('ZCARD', s.live)
  end
  return s.nlive
end
local function rpm_count(s)
  if not s.nrpm then
    flush(s)
    s.nrpm = redis.call('ZCARD', s.rpm)
  end
  return s.nrpm
end
local function rpm_newest(s)
  if s.trpm == nil then
    flush(s)
    s.trpm = newest(s.rpm) or false
  end
  return s.trpm or nil
end

local function figures(R, now)
  local out = {}
  for i = 1, #R do
    local s = R[i]
    local f = { live_count(s), -1, -1, -1, -1, -1, -1, -1 }
    if s.lrpm >= 0 then
      f[2] = rpm_count(s)
      local t = rpm_newest(s)
      f[3] = t and t + WINDOW or now
    end
    if s.ltpm >= 0 then
      f[4] = s.used
      local t = s.ttpm or nil
      f[5] = t and t + WINDOW or now
    end
    if s.lbud >= 0 then f[6], f[7], f[8] = s.settled, s.heldsum, s.holds end
    out[i] = f
  end
  return out
end

local function tpm_wait(s, tokens, now)
  if tokens > s.ltpm then return -1 end
  local excess = s.used + tokens - s.ltpm
  if excess <= 0 then return 0 end
  flush(s)
  local r = redis.call('ZRANGE', s.tz, 0, -1, 'WITHSCORES')
  for j = 1, #r, 2 do
    excess = excess - tonumber(redis.call('HGET', s.th, r[j]) or '0')
    if excess <= 0 then return tonumber(r[j + 1]) + WINDOW - now end
  end
  return WINDOW
end

local function refusal(R, tokens, reservation, now)
  for i = 1, #R do
    local s = R[i]
    if s.lbud >= 0 and s.settled + s.heldsum + reservation > s.lbud + EPS then
      return { 'budget', i - 1, 0 }
    end
  end
  for i = 1, #R do
    local s = R[i]
    if s.lpar >= 0 and live_count(s) >= s.lpar then return { 'parallel', i - 1, 0 } end
  end
  for i = 1, #R do
    local s = R[i]
    if s.lrpm >= 0 then
      local count = rpm_count(s)
      if count >= s.lrpm then
        flush(s)
        local r = redis.call('ZRANGE', s.rpm, count - s.lrpm, count - s.lrpm, 'WITHSCORES')
        -- no entry there only if the count were wrong: then the window has room
        local wait = r[2] and tonumber(r[2]) + WINDOW - now or 0
        if wait > 0 then return { 'rpm', i - 1, wait } end
      end
    end
  end
  for i = 1, #R do
    local s = R[i]
    if s.ltpm >= 0 and tokens >= 0 then
      local wait = tpm_wait(s, tokens, now)
      if wait ~= 0 then return { 'tpm', i - 1, wait } end
    end
  end
  return nil
end

-- The holds of an admitted request, as waiting writes.
local function take(R, q, now, tokens, reservation)
  local id, lease = q[1], q[3]
  local others = {}
  for i = 1, #R do
    local s = R[i]
    local n = #s.wlive
    s.wlive[n + 1], s.wlive[n + 2] = now + lease, id
    s.minlease = math.min(s.minlease, now + lease)
    if s.nlive then s.nlive = s.nlive + 1 end
    s.xlive = lease + WINDOW
    if s.lrpm >= 0 then
      local prev = rpm_newest(s)
      local t = math.max(now, prev or now)
      n = #s.wrpm
      s.wrpm[n + 1], s.wrpm[n + 2] = t, id
      s.minrpm = math.min(s.minrpm, t)
      -- the count is known (the rpm check read it): trim only past the limit
      local count = rpm_count(s) + 1
      if count > s.lrpm then
        flush(s)
        count = count - redis.call('ZREMRANGEBYRANK', s.rpm, 0, -(s.lrpm + 1))
      end
      s.nrpm = count
      -- the entry just added is the newest (its time is at least every other's) and is kept
      -- whenever the window keeps any
      if s.lrpm >= 1 then s.trpm = t else s.trpm = nil end
      if new_step(prev, t) then s.xrpm = true end
    end
    if s.ltpm >= 0 and tokens >= 0 then
      local prev = s.ttpm or nil
      local t = math.max(now, prev or now)
      n = #s.wtz
      s.wtz[n + 1], s.wtz[n + 2] = t, id
      s.mintpm = math.min(s.mintpm, t)
      n = #s.wth
      s.wth[n + 1], s.wth[n + 2] = id, q[4]
      s.ttpm = t
      s.used = s.used + tokens
      if new_step(prev, t) then s.xtz = true end
    end
    if s.lbud >= 0 then
      others[i] = s.settled + s.heldsum
      n = #s.wheld
      s.wheld[n + 1], s.wheld[n + 2] = id, q[5]
      s.xheld = lease + WINDOW
      s.heldsum = s.heldsum + reservation
      s.holds = s.holds + 1
    else
      others[i] = -1
    end
  end
  return others
end

local function admit(q)
  local now = q[2]
  local tokens = tonumber(q[4])
  local reservation = tonumber(q[5])
  local R = {}
  local load = {}
  for i = 1, #q[7] do
    local p = q[7][i]
    local s = S[p[1]]
    s.lrpm, s.ltpm, s.lpar, s.lbud = tonumber(p[2]), tonumber(p[3]), tonumber(p[4]),
      tonumber(p[5])
    leases_at(s, now)
    if s.lbud >= 0 then
      local settled = settled_of(s, p[6], now, p[7])
      if settled then
        s.settled = tonumber(settled)
        held_of(s)
      else
        load[#load + 1] = i - 1
      end
    end
    if s.lrpm >= 0 then rpm_at(s, now) end
    if s.ltpm >= 0 then tpm_at(s, now) end
    R[i] = s
  end
  if #load > 0 then return { load = load } end
  if q[6] == '1' then return { o = {}, f = figures(R, now) } end
  local refused = refusal(R, tokens, reservation, now)
  if refused then return { r = refused, f = figures(R, now) } end
  local others = take(R, q, now, tokens, reservation)
  return { o = others, f = figures(R, now) }
end

local out = {}
for r = 2, #A do out[r - 1] = admit(A[r]) end
for j = 1, #S do flush(S[j]) end
return cjson.encode(out)
`;
