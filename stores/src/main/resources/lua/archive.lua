-- archive.lua: deletes an ended sale's Redis side once every purchase is final, leaving a small
-- marker. Called only after MySQL showed no PENDING_PAYMENT order; the checks here make it safe
-- against purchases still moving: an admission whose workflow has no order yet keeps its hold HELD
-- (a HELD hold that is not a PAID order's), and an admission not yet relayed sits in the stream.
-- Holds and orders are compared by purchase id, not by count: a PAID order whose hold Redis lost
-- cannot hide a HELD hold still in flight.
-- Idempotent by sale: on an archived (or absent) sale it changes nothing and answers 1.
--
-- KEYS[1] meta        hash {sale:ID}:meta
-- KEYS[2] stock       string {sale:ID}:stock
-- KEYS[3] buyers      hash user id -> "purchaseId|idempotencyKey"
-- KEYS[4] holds       hash purchase id -> HELD | RELEASED | VOID
-- KEYS[5] admissions  stream {sale:ID}:admissions
-- KEYS[6] changes     hash of the unit changes applied (restock.lua, withdraw.lua)
-- ARGV[1] markerTtlMillis  how long the marker (opens, closes, archived) stays; until then a late
--                          purchase request is answered "not open" rather than "no such sale"
-- ARGV[2..] the purchase ids of the sale's PAID orders in MySQL (each keeps its hold HELD)
--
-- Returns
--    1  archived now, or before (only the marker, or nothing, is left)
--   -1  admissions in flight: the stream holds entries
--   -2  a purchase is not final: the HELD holds are not exactly the PAID orders' purchases

if redis.call('HEXISTS', KEYS[1], 'archived') == 1 or redis.call('EXISTS', KEYS[1], KEYS[2], KEYS[5]) == 0 then
  return 1
end
if redis.call('XLEN', KEYS[5]) > 0 then
  return -1
end
local paid = {}
for i = 2, #ARGV do
  paid[ARGV[i]] = true
end
local holds = redis.call('HGETALL', KEYS[4])
for i = 1, #holds, 2 do
  if holds[i + 1] == 'HELD' then
    if not paid[holds[i]] then
      return -2
    end
    paid[holds[i]] = nil
  end
end
if next(paid) ~= nil then
  return -2
end
local window = redis.call('HMGET', KEYS[1], 'opens', 'closes')
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
redis.call('HSET', KEYS[1], 'opens', window[1] or '0', 'closes', window[2] or '0', 'archived', '1')
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
