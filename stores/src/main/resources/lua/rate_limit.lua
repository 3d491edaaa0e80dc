-- rate_limit.lua: the token buckets of one purchase request, per user and per client address,
-- checked together. A request takes a token from every enabled bucket or from none: a refused
-- request writes nothing. Runs as the function rate_limit(KEYS, ARGV) inside limited_admit.lua
-- (one EVALSHA limits and admits; see LuaScripts).
--
-- A bucket is a hash {tokens, at}: tokens left (a float) at epoch millis "at" (Redis TIME). It
-- refills lazily by refill * elapsed seconds up to capacity, and expires once it would be full
-- again (a missing bucket is a full one), so idle buyers leave no keys behind.
--
-- KEYS[1] meta            hash {sale:ID}:meta; its optional fields rlUserCapacity, rlUserRefill,
--                         rlAddressCapacity, rlAddressRefill (set at sale creation or by hand)
--                         override ARGV[1..4] for this sale
-- KEYS[2] user bucket     hash {sale:ID}:rl:user:USER
-- KEYS[3] address bucket  hash {sale:ID}:rl:ip:ADDRESS
-- ARGV[1] user capacity       tokens (burst size); 0 or "" = no per-user limit
-- ARGV[2] user refill         tokens per second, > 0
-- ARGV[3] address capacity    tokens; 0 or "" = no per-address limit
-- ARGV[4] address refill      tokens per second, > 0
--
-- Returns {code, retryAfterSeconds}:
--   {"ALLOWED", ""}        a token was taken from each enabled bucket; also when the sale is not
--                          loaded (no meta): nothing is written and the admission answers
--   {"RATE_LIMITED", "N"}  a bucket holds less than one token; N >= 1 whole seconds until every
--                          bucket has one again; nothing written

local meta = redis.call('HMGET', KEYS[1], 'opens', 'rlUserCapacity', 'rlUserRefill', 'rlAddressCapacity',
  'rlAddressRefill')
if not meta[1] then
  return {'ALLOWED', ''}
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local buckets = {
  {key = KEYS[2], capacity = tonumber(meta[2] or ARGV[1]) or 0, refill = tonumber(meta[3] or ARGV[2]) or 1},
  {key = KEYS[3], capacity = tonumber(meta[4] or ARGV[3]) or 0, refill = tonumber(meta[5] or ARGV[4]) or 1},
}
local wait = 0
for _, bucket in ipairs(buckets) do
  if bucket.capacity > 0 then
    local state = redis.call('HMGET', bucket.key, 'tokens', 'at')
    bucket.tokens = bucket.capacity
    if state[1] then
      local elapsed = math.max(0, now - tonumber(state[2]))
      bucket.tokens = math.min(bucket.capacity, tonumber(state[1]) + elapsed * bucket.refill / 1000)
    end
    if bucket.tokens < 1 then
      wait = math.max(wait, math.ceil((1 - bucket.tokens) / bucket.refill))
    end
  end
end
if wait > 0 then
  return {'RATE_LIMITED', tostring(wait)}
end
for _, bucket in ipairs(buckets) do
  if bucket.capacity > 0 then
    redis.call('HSET', bucket.key, 'tokens', string.format('%.6f', bucket.tokens - 1), 'at', string.format('%d', now))
    redis.call('PEXPIRE', bucket.key, math.ceil(bucket.capacity / bucket.refill * 1000) + 1000)
  end
end
return {'ALLOWED', ''}
