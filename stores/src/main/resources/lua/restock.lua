-- restock.lua: puts added units on sale, after MySQL's total and available grew by them (MySQL
-- first: Redis never offers a unit MySQL does not have). Idempotent by the change's
-- Idempotency-Key: the units are added once, whatever the retries; the key is kept in the sale's
-- changes hash with the units and Redis' time, which the audit compares with MySQL's record.
--
-- The added units are announced on the stock-returned channel (the sale id as the message), so every
-- api drops its in-memory sold-out mark of the sale (SoldOutMarks) and sells them.
--
-- KEYS[1] meta     hash {sale:ID}:meta (its total grows too)
-- KEYS[2] stock    string {sale:ID}:stock
-- KEYS[3] changes  hash Idempotency-Key -> "units:epochMillis"
-- ARGV[1] key      the change's Idempotency-Key
-- ARGV[2] units    units added, > 0
-- ARGV[3] stock-returned channel
-- ARGV[4] saleId
--
-- Returns
--    1  this call added the units (stock + units, total + units, announced)
--    0  the key was applied before: nothing changed
--   -1  the sale is not loaded (no stock): nothing changed; loading it from MySQL brings the units

if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then
  return 0
end
if redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('INCRBY', KEYS[2], ARGV[2])
redis.call('HINCRBY', KEYS[1], 'total', ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2] .. ':' .. string.format('%d', now))
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
