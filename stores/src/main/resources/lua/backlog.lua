-- backlog.lua: what of a sale's admissions still waits for the relay, in one round trip (read only).
-- The stream holds exactly the admissions whose workflow start nobody confirmed yet: the api and
-- the relay delete an entry once its workflow exists.
--
-- KEYS[1] admissions  stream {sale:ID}:admissions
--
-- Returns {length, oldestId}: the number of entries and the id of the oldest one (its first part
-- is the Redis time in millis at which it was added), '' when the stream is empty or missing.

local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
local id = ''
if #oldest > 0 then
  id = oldest[1][1]
end
return {redis.call('XLEN', KEYS[1]), id}
