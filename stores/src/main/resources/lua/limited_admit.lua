-- limited_admit.lua: the purchase request's rate limit, then its admission, in one EVALSHA (one
-- round trip, atomically). LuaScripts puts rate_limit.lua and admit.lua in front of this
-- file as the local functions rate_limit(KEYS, ARGV) and admit(KEYS, ARGV); their headers describe
-- them. A rate-limited request writes nothing and is not admitted. A repeat with the idempotency key
-- the buyer was admitted with is not limited: it spends no token and answers SAME_KEY.
--
-- KEYS[1] meta        hash {sale:ID}:meta
-- KEYS[2] stock       string {sale:ID}:stock
-- KEYS[3] buyers      hash {sale:ID}:buyers
-- KEYS[4] holds       hash {sale:ID}:holds
-- KEYS[5] admissions  stream {sale:ID}:admissions
-- KEYS[6] user bucket     hash {sale:ID}:rl:user:USER
-- KEYS[7] address bucket  hash {sale:ID}:rl:ip:ADDRESS
-- ARGV[1..4] admit.lua's: saleId, userId, idempotencyKey, purchaseId
-- ARGV[5..8] rate_limit.lua's: user capacity, user refill/s, address capacity, address refill/s
--
-- Returns admit.lua's reply {code, purchaseId, payTimeoutSeconds, entryId}, or
--   {"RATE_LIMITED", "", "", "", retryAfterSeconds}   a bucket is empty; nothing written

if redis.call('HGET', KEYS[3], ARGV[2]) == ARGV[4] .. '|' .. ARGV[3] then
  return admit({KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]}, {ARGV[1], ARGV[2], ARGV[3], ARGV[4]})
end
local limit = rate_limit({KEYS[1], KEYS[6], KEYS[7]}, {ARGV[5], ARGV[6], ARGV[7], ARGV[8]})
if limit[1] == 'RATE_LIMITED' then
  return {'RATE_LIMITED', '', '', '', limit[2]}
end
return admit({KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]}, {ARGV[1], ARGV[2], ARGV[3], ARGV[4]})
