-- confirm.lua: makes sure a purchase holds a unit. Idempotent by purchase id.
--
-- KEYS[1] holds   hash purchase id -> HELD | RELEASED | VOID
-- KEYS[2] stock   string {sale:ID}:stock
-- KEYS[3] buyers  hash user id -> "purchaseId|idempotencyKey"
-- ARGV[1] purchaseId
-- ARGV[2] userId
--
-- Returns
--    1  the hold is HELD (nothing changed)
--    2  Redis had lost the hold and stock remained: stock - 1, hold HELD, buyer recorded
--   -1  Redis had lost the hold and has no stock: nothing changed
--   -2  the hold is RELEASED or VOID: the unit went back already (or never existed), nothing changed
--   -3  Redis had lost the hold and has no stock key (Redis lost the sale): nothing changed; the
--       caller retries (after a repair the answer is one of the above)

local hold = redis.call('HGET', KEYS[1], ARGV[1])
if hold == 'HELD' then
  return 1
end
if hold then
  return -2
end
local stock = redis.call('GET', KEYS[2])
if not stock then
  return -3
end
if tonumber(stock) <= 0 then
  return -1
end
redis.call('DECR', KEYS[2])
redis.call('HSET', KEYS[1], ARGV[1], 'HELD')
redis.call('HSETNX', KEYS[3], ARGV[2], ARGV[1] .. '|')
return 2
