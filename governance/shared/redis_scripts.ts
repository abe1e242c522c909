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
 * Admissions and releases go in batches: every one a process made in one turn of its event loop
 * is one call (`tick_batch.ts`; the admission script is `redis_admit_script.ts`). Arguments: a
 * JSON array (ARGV[1] of a batch; ARGV[2] of a flow, whose ARGV[1] is the request id), a string
 * where the script stores the caller's text, a number where it only computes, so a call sends
 * one or two arguments besides its keys, not twenty: each argument costs the client its own
 * encoding. A script reads what it has already read or written from its own variables instead
 * of asking Redis again (a count, the newest entry of a window).
 * @module
 */
import { LIB } from "./redis_script_lib.ts";

/** Release: the ends of the requests one process released in one turn of its event loop, in
 * one call (`tick_batch.ts`). ARGV[1]: JSON `[spentTtl, request, ...]`, a request `[id, now,
 * tokens, cost, scopes]`, a scope `[index (1-based, into the KEYS' scopes), tpm ('1'), field
 * ('' when no budget)]`. Each scope's leases and holds end in one ZREM and one HDEL; a period's
 * costs are added to its settled spend, when it is loaded, in one HINCRBYFLOAT (their sum,
 * printed with 17 digits; a single cost goes as the caller's text); the tpm entries are settled
 * to their real tokens in one HMGET and one HSET. The batcher never puts one request twice in a
 * batch. */
export const RELEASE = LIB + `
local A = cjson.decode(ARGV[1])
local ttl = A[1]
local S = {}
for j = 1, #KEYS / 6 do
  S[j] = { k = (j - 1) * 6, ended = {}, unheld = {}, fields = {}, spent = {}, tpm = {} }
end
for r = 2, #A do
  local q = A[r]
  local id, now = q[1], q[2]
  for _, p in ipairs(q[5]) do
    local s = S[p[1]]
    s.ended[#s.ended + 1] = id
    local field = p[3]
    if field ~= '' then
      s.unheld[#s.unheld + 1] = id
      local f = s.spent[field]
      if not f then
        local v = redis.call('HMGET', KEYS[s.k + 6], field, '_at')
        f = { loaded = v[1], at = v[2], costs = {} }
        s.spent[field] = f
        s.fields[#s.fields + 1] = field
      end
      -- the TTL refreshed when due, once per clock reading
      if f.loaded and f.now ~= now then
        f.at, f.now = spent_touch(KEYS[s.k + 6], f.at, now, ttl), now
      end
      if f.loaded then f.costs[#f.costs + 1] = q[4] end
    end
    if p[2] == '1' then s.tpm[#s.tpm + 1] = q end
  end
end
for _, s in ipairs(S) do
  if #s.ended > 0 then chunks('ZREM', KEYS[s.k + 4], s.ended) end
  if #s.unheld > 0 then chunks('HDEL', KEYS[s.k + 5], s.unheld) end
  for _, field in ipairs(s.fields) do
    local costs = s.spent[field].costs
    local add = costs[1]
    if #costs > 1 then
      local sum = 0
      for _, cost in ipairs(costs) do sum = sum + tonumber(cost) end
      add = string.format('%.17g', sum)
    end
    if add then redis.call('HINCRBYFLOAT', KEYS[s.k + 6], field, add) end
  end
  if #s.tpm > 0 then
    -- No prune here: every reader of the window (admit, peek) prunes first, and an expired
    -- entry settled here leaves with its settled tokens at that prune, so '_sum' after it is
    -- what pruning first would have left. An entry already pruned is absent: nothing to do.
    local th = KEYS[s.k + 3]
    local ids = {}
    for i, q in ipairs(s.tpm) do ids[i] = q[1] end
    local v = redis.call('HMGET', th, '_sum', unpack(ids))
    local sum, set = tonumber(v[1] or '0'), {}
    for i, q in ipairs(s.tpm) do
      if v[i + 1] then
        sum = sum + tonumber(q[3]) - tonumber(v[i + 1])
        set[#set + 1], set[#set + 2] = q[1], q[3]
      end
    end
    if #set > 0 then
      set[#set + 1], set[#set + 2] = '_sum', int(sum)
      redis.call('HSET', th, unpack(set))
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
