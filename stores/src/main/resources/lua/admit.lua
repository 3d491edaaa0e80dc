-- admit.lua: the whole admission decision for one buyer, atomically. Writes nothing unless the
-- buyer is admitted. Runs as the function admit(KEYS, ARGV) inside limited_admit.lua (see
-- LuaScripts).
--
-- KEYS[1] meta        hash {sale:ID}:meta (opens, closes, payTimeoutSeconds)
-- KEYS[2] stock       string {sale:ID}:stock
-- KEYS[3] buyers      hash user id -> "purchaseId|idempotencyKey"
-- KEYS[4] holds       hash purchase id -> HELD | RELEASED | VOID
-- KEYS[5] admissions  stream of admitted purchases
-- ARGV[1] saleId
-- ARGV[2] userId
-- ARGV[3] idempotencyKey
-- ARGV[4] purchaseId  (purchase-{saleId}-{userId}, computed by the caller)
--
-- Returns {code, purchaseId, payTimeoutSeconds, entryId}, fields that do not apply "", except
-- SAME_KEY: {code, purchaseId, payTimeoutSeconds, entryId, retryAfter, hold}, six fields, the fifth
-- the place limited_admit.lua gives RATE_LIMITED's retry-after (always "" here), the sixth the hold.
--   {"UNKNOWN_SALE", "", "", ""}                      no meta hash: the sale is not loaded
--   {"SAME_KEY", purchaseId, payTimeoutSeconds, "", "", hold}
--                                                     the user was admitted with this key before
--                                                     (answered even after the sale closed); hold
--                                                     is the purchase's hold state (HELD, RELEASED,
--                                                     VOID) or "" when Redis has none, so a repeat
--                                                     is answered from Redis alone
--   {"NOT_OPEN", "", "", ""}                          Redis TIME is outside [opens, closes)
--   {"ALREADY_PURCHASED", purchaseId, "", ""}         the user was admitted with another key
--   {"SOLD_OUT", "", "", ""}                          stock <= 0
--   {"ADMITTED", purchaseId, payTimeoutSeconds, entryId}
--                                                     stock - 1, buyer recorded, hold HELD, entry added

local meta = redis.call('HMGET', KEYS[1], 'opens', 'closes', 'payTimeoutSeconds')
if not meta[1] then
  return {'UNKNOWN_SALE', '', '', ''}
end
local payTimeout = meta[3]
-- a repeat with the same key answers the purchase first, whether the window has closed since
local buyer = redis.call('HGET', KEYS[3], ARGV[2])
if buyer == ARGV[4] .. '|' .. ARGV[3] then
  return {'SAME_KEY', ARGV[4], payTimeout, '', '', redis.call('HGET', KEYS[4], ARGV[4]) or ''}
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local closes = tonumber(meta[2])
if now < tonumber(meta[1]) or (closes and now >= closes) then
  return {'NOT_OPEN', '', '', ''}
end
if buyer then
  return {'ALREADY_PURCHASED', ARGV[4], '', ''}
end
if (tonumber(redis.call('GET', KEYS[2])) or 0) <= 0 then
  return {'SOLD_OUT', '', '', ''}
end
redis.call('DECR', KEYS[2])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[4] .. '|' .. ARGV[3])
redis.call('HSET', KEYS[4], ARGV[4], 'HELD')
local entryId = redis.call('XADD', KEYS[5], '*',
  'purchaseId', ARGV[4], 'saleId', ARGV[1], 'userId', ARGV[2], 'payTimeoutSeconds', payTimeout)
return {'ADMITTED', ARGV[4], payTimeout, entryId}
