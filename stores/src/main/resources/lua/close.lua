-- close.lua: closes a sale now, by Redis' clock: admit.lua refuses every buyer from the moment this
-- script ran (NOT_OPEN), on every api at once, since they all ask this meta. A buyer admitted before
-- keeps the purchase (SAME_KEY still answers it) and the order stays payable until its deadline.
-- Idempotent by sale: a sale already closed keeps the close it has (an earlier close, or the end of
-- its window), so a repeat changes nothing and answers the same time.
--
-- KEYS[1] meta  hash {sale:ID}:meta (opens, closes)
--
-- Returns the close time after the call (epoch millis): now when this call closed the sale, the
-- earlier close when it was closed before; -1 when the sale is not loaded (no meta: nothing to close
-- here, MySQL's window is what a later load brings).

local meta = redis.call('HMGET', KEYS[1], 'opens', 'closes')
if not meta[1] then
  return -1
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local closes = tonumber(meta[2])
if closes and closes <= now then
  return closes
end
redis.call('HSET', KEYS[1], 'closes', string.format('%d', now))
return now
