-- sold_out_snapshot.lua: what an api needs to answer "sold out" from memory for a while, read in
-- one atomic step: the sale is open, its stock is gone, and who its buyers are. Writes nothing.
-- SoldOutMarks keeps the answer until a unit comes back (the stock-returned channel) or its time
-- runs out; a buyer listed here is never answered from memory (they are owed SAME_KEY or
-- ALREADY_PURCHASED by admit.lua).
--
-- KEYS[1] meta    hash {sale:ID}:meta (opens, closes)
-- KEYS[2] stock   string {sale:ID}:stock
-- KEYS[3] buyers  hash user id -> "purchaseId|idempotencyKey"
-- ARGV[1] the most buyers the caller keeps in memory
--
-- Returns {} when the sale is not loaded, not open now (Redis TIME), has stock left or more buyers
-- than ARGV[1]; else {millisUntilClose ("" = never closes), buyer user ids...}.

local meta = redis.call('HMGET', KEYS[1], 'opens', 'closes')
if not meta[1] then
  return {}
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local closes = tonumber(meta[2])
if now < tonumber(meta[1]) or (closes and now >= closes) then
  return {}
end
if (tonumber(redis.call('GET', KEYS[2])) or 0) > 0 then
  return {}
end
if redis.call('HLEN', KEYS[3]) > tonumber(ARGV[1]) then
  return {}
end
local reply = {closes and tostring(closes - now) or ''}
for _, user in ipairs(redis.call('HKEYS', KEYS[3])) do
  reply[#reply + 1] = user
end
return reply
