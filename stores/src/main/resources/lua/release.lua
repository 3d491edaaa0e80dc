-- release.lua: gives a held unit back. Idempotent by purchase id: only a HELD hold becomes
-- RELEASED and returns its unit; every later call is a no-op.
--
-- A returned unit is announced on the stock-returned channel (the sale id as the message), so that
-- every api drops its in-memory sold-out mark of the sale (SoldOutMarks) and sells the unit again.
--
-- KEYS[1] holds  hash purchase id -> HELD | RELEASED
-- KEYS[2] stock  string {sale:ID}:stock
-- ARGV[1] purchaseId
-- ARGV[2] stock-returned channel
-- ARGV[3] saleId
--
-- Returns 1 when this call returned the unit (stock + 1), 0 when nothing changed.

if redis.call('HGET', KEYS[1], ARGV[1]) ~= 'HELD' then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], 'RELEASED')
redis.call('INCR', KEYS[2])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
