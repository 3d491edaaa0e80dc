-- move.lua: moves an open or future sale's window. Never reopens a closed sale: once Redis' clock
-- passed the close, the window stays (a closed sale is closed for good; orders already written stay
-- payable). The caller refuses a close in the past before it gets here and writes MySQL in the same
-- transaction, rolled back when this script refuses.
--
-- KEYS[1] meta  hash {sale:ID}:meta (opens, closes)
-- ARGV[1] opens   epoch millis the sale opens at
-- ARGV[2] closes  epoch millis the sale closes at, "" = never
--
-- Returns
--    1  the window is moved (or was there already)
--   -1  the sale is not loaded (no meta): MySQL's window is what a later load brings
--   -2  the sale is closed: nothing changed

local meta = redis.call('HMGET', KEYS[1], 'opens', 'closes')
if not meta[1] then
  return -1
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if tonumber(meta[2]) and tonumber(meta[2]) <= now then
  return -2
end
redis.call('HSET', KEYS[1], 'opens', ARGV[1], 'closes', ARGV[2])
return 1
