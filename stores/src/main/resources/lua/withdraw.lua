-- withdraw.lua: takes units off sale, before MySQL's total and available shrink by what it took
-- (Redis first: from this moment no buyer can be admitted to a withdrawn unit). Takes only units
-- the stock still has: never a unit a buyer holds or bought, never below zero, so asking for more
-- than is left takes what is left. Idempotent by the change's Idempotency-Key: a repeat takes
-- nothing and answers what the first call took; the key is kept in the sale's changes hash with
-- the (negative) units and Redis' time, which the audit compares with MySQL's record.
--
-- KEYS[1] meta     hash {sale:ID}:meta (its total shrinks too)
-- KEYS[2] stock    string {sale:ID}:stock
-- KEYS[3] changes  hash Idempotency-Key -> "units:epochMillis"
-- ARGV[1] key      the change's Idempotency-Key
-- ARGV[2] units    units asked for, > 0
--
-- Returns {code, taken}
--   {"TAKEN", n}         this call took n units (0 <= n <= units asked)
--   {"TAKEN_BEFORE", n}  the key was applied before, when it took n units: nothing changed
--   {"UNKNOWN_SALE", 0}  the sale is not loaded (no stock): nothing changed

local before = redis.call('HGET', KEYS[3], ARGV[1])
if before then
  return {'TAKEN_BEFORE', 0 - tonumber(string.match(before, '^(-?%d+)'))}
end
local stock = redis.call('GET', KEYS[2])
if not stock then
  return {'UNKNOWN_SALE', 0}
end
local taken = math.min(tonumber(ARGV[2]), math.max(0, tonumber(stock)))
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('DECRBY', KEYS[2], taken)
redis.call('HINCRBY', KEYS[1], 'total', 0 - taken)
redis.call('HSET', KEYS[3], ARGV[1], (0 - taken) .. ':' .. string.format('%d', now))
return {'TAKEN', taken}
