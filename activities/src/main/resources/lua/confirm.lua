-- confirm.lua: makes sure a purchase holds a unit. Idempotent by purchase id.
--
-- KEYS[1] holds   hash purchase id -> HELD | RELEASED
-- KEYS[2] stock   string {sale:ID}:stock
-- KEYS[3] buyers  hash user id -> "purchaseId|idempotencyKey"
-- ARGV[1] purchaseId
-- ARGV[2] userId
--
-- Returns
--    1  the hold is HELD (nothing changed)
--    2  Redis had lost the hold and stock remained: stock - 1, hold HELD, buyer recorded
--   -1  Redis had lost the hold and has no stock (or no stock key): nothing changed
--   -2  the hold is RELEASED: the unit went back already, nothing changed

local hold = redis.call('HGET', KEYS[1], ARGV[1])
if hold == 'HELD' then
  return 1
end
if hold then
  return -2
end
if (tonumber(redis.call('GET', KEYS[2])) or 0) <= 0 then
  return -1
end
redis.call('DECR', KEYS[2])
redis.call('HSET', KEYS[1], ARGV[1], 'HELD')
redis.call('HSETNX', KEYS[3], ARGV[2], ARGV[1] .. '|')
return 2
