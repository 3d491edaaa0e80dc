-- repair.lua: rebuilds a sale's holds, buyers and stock from the facts the caller gathered in
-- MySQL and Temporal. Refuses when an admission happened since the caller's snapshot. The sale's
-- total and its applied unit changes become MySQL's: a restock MySQL recorded counts as applied (the
-- stock includes it, a repeat of it adds nothing), a withdrawal MySQL never recorded did not happen
-- (the stock has the units again, a repeat takes them anew).
--
-- KEYS[1] holds       hash purchase id -> HELD | RELEASED
-- KEYS[2] stock       string {sale:ID}:stock
-- KEYS[3] buyers      hash user id -> "purchaseId|idempotencyKey"
-- KEYS[4] admissions  stream {sale:ID}:admissions
-- KEYS[5] meta        hash {sale:ID}:meta (its total becomes ARGV[1])
-- KEYS[6] changes     hash Idempotency-Key -> "units:epochMillis" (replaced by MySQL's unit changes)
-- ARGV[1] total       units of the sale (MySQL)
-- ARGV[2] buyers      HLEN buyers as the caller's snapshot saw it
-- ARGV[3] channel     stock-returned channel: the sale id is announced there after every repair
-- ARGV[4] saleId
-- ARGV[5] n           then n purchase ids whose order is PENDING_PAYMENT or PAID: made HELD
-- ARGV[6+n] m         then m purchase ids whose purchase ended without a sale: HELD becomes RELEASED
-- ARGV[7+n+m] c       then c pairs Idempotency-Key, units: the restocks and withdrawals MySQL recorded
-- the rest            pairs user id, purchase id of every order: recorded as buyers when missing
--
-- Returns
--   {"IN_FLIGHT"}                                   admissions in the stream, or new buyers since the
--                                                   snapshot: nothing changed
--   {"OK", held, released, buyers, before, after}   holds made HELD, holds RELEASED, buyers added,
--                                                   stock before ("" when missing) and after; the
--                                                   stock is total - HELD holds

if redis.call('XLEN', KEYS[4]) > 0 or redis.call('HLEN', KEYS[3]) ~= tonumber(ARGV[2]) then
  return {'IN_FLIGHT'}
end
local n = tonumber(ARGV[5])
local held = 0
for i = 6, 5 + n do
  if redis.call('HGET', KEYS[1], ARGV[i]) ~= 'HELD' then
    redis.call('HSET', KEYS[1], ARGV[i], 'HELD')
    held = held + 1
  end
end
local m = tonumber(ARGV[6 + n])
local released = 0
for i = 7 + n, 6 + n + m do
  if redis.call('HGET', KEYS[1], ARGV[i]) == 'HELD' then
    redis.call('HSET', KEYS[1], ARGV[i], 'RELEASED')
    released = released + 1
  end
end
local c = tonumber(ARGV[7 + n + m])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('DEL', KEYS[6])
for i = 8 + n + m, 7 + n + m + 2 * c, 2 do
  redis.call('HSET', KEYS[6], ARGV[i], ARGV[i + 1] .. ':' .. string.format('%d', now))
end
local buyers = 0
for i = 8 + n + m + 2 * c, #ARGV, 2 do
  buyers = buyers + redis.call('HSETNX', KEYS[3], ARGV[i], ARGV[i + 1] .. '|')
end
local holding = 0
for _, state in ipairs(redis.call('HVALS', KEYS[1])) do
  if state == 'HELD' then
    holding = holding + 1
  end
end
local before = redis.call('GET', KEYS[2]) or ''
local after = tonumber(ARGV[1]) - holding
redis.call('SET', KEYS[2], after)
redis.call('HSET', KEYS[5], 'total', ARGV[1])
redis.call('PUBLISH', ARGV[3], ARGV[4])
return {'OK', held, released, buyers, before, after}
