-- ack_delete.lua: the relay is done with an admission entry (its workflow exists): acknowledge it
-- and delete it in one atomic step. Two separate calls could stop after the first (connection
-- lost, worker killed) and leave an acknowledged entry in the stream that no consumer reads again,
-- so the sale would report admissions in flight forever. Deleting first: when the call fails
-- before anything changed, the entry stays pending and the relay's next pass repeats it
-- (idempotent by the entry id: XDEL and XACK of an entry already gone change nothing).
--
-- KEYS[1] admissions  stream {sale:ID}:admissions (consumer group "relay")
-- ARGV[1] entryId     the stream entry id
--
-- Returns 1 when this call deleted the entry, 0 when it was already gone (the api deleted it, or an
-- earlier call did).

local deleted = redis.call('XDEL', KEYS[1], ARGV[1])
redis.call('XACK', KEYS[1], 'relay', ARGV[1])
return deleted
