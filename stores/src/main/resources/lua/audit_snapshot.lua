-- audit_snapshot.lua: one consistent read of a sale's Redis state for the invariant audit and the
-- repair (one script, so no admission lands between its parts).
--
-- KEYS[1] meta        hash {sale:ID}:meta
-- KEYS[2] stock       string {sale:ID}:stock
-- KEYS[3] buyers      hash user id -> "purchaseId|idempotencyKey"
-- KEYS[4] holds       hash purchase id -> HELD | RELEASED | VOID
-- KEYS[5] admissions  stream {sale:ID}:admissions (consumer group "relay")
-- KEYS[6] changes     hash Idempotency-Key -> "units:epochMillis" (restock.lua, withdraw.lua)
--
-- Returns {metaExists, stock, buyers, streamLength, streamPending, holds, inFlight, changes, now}
--   metaExists     1 when the meta hash exists, else 0
--   stock          the stock counter as text, "" when the key is missing
--   buyers         HLEN buyers
--   streamLength   XLEN admissions (entries whose workflow may not run yet)
--   streamPending  entries delivered to a relay consumer and not acknowledged (0 without a group)
--   holds          flat {purchaseId, state, ...} (HGETALL holds)
--   inFlight       purchase ids of the entries still in the stream
--   changes        flat {key, "units:epochMillis", ...} (HGETALL changes): the unit changes applied
--   now            Redis TIME in epoch millis, to tell how long ago a change was applied

local stock = redis.call('GET', KEYS[2]) or ''
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local pending = 0
local summary = redis.pcall('XPENDING', KEYS[5], 'relay')
if type(summary) == 'table' and not summary.err then
  pending = summary[1]
end
local inFlight = {}
for _, entry in ipairs(redis.call('XRANGE', KEYS[5], '-', '+')) do
  local fields = entry[2]
  for i = 1, #fields, 2 do
    if fields[i] == 'purchaseId' then
      inFlight[#inFlight + 1] = fields[i + 1]
    end
  end
end
return {
  redis.call('EXISTS', KEYS[1]),
  stock,
  redis.call('HLEN', KEYS[3]),
  redis.call('XLEN', KEYS[5]),
  pending,
  redis.call('HGETALL', KEYS[4]),
  inFlight,
  redis.call('HGETALL', KEYS[6]),
  now
}
