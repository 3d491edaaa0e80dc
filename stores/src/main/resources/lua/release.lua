-- release.lua: gives a held unit back. Idempotent by purchase id: only a HELD hold becomes
-- RELEASED and returns its unit; every later call is a no-op.
--
-- KEYS[1] holds  hash purchase id -> HELD | RELEASED
-- KEYS[2] stock  string {sale:ID}:stock
-- ARGV[1] purchaseId
--
-- Returns 1 when this call returned the unit (stock + 1), 0 when nothing changed.

if redis.call('HGET', KEYS[1], ARGV[1]) ~= 'HELD' then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], 'RELEASED')
redis.call('INCR', KEYS[2])
return 1
