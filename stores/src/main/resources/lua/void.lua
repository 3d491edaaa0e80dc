-- void.lua: voids a hold whose unit MySQL never had (MySQL refused the order as sold out after
-- Redis admitted it: Redis stock was above the truth). Idempotent by purchase id: only a HELD hold
-- becomes VOID; the stock is left alone, since giving that unit back would admit the next buyer
-- to the same refusal. The buyer is forgotten, so the rejected buyer (who has no order) may try
-- again. The audit reports the drift (Redis stock + HELD below total).
--
-- KEYS[1] holds   hash purchase id -> HELD | RELEASED | VOID
-- KEYS[2] buyers  hash user id -> "purchaseId|idempotencyKey"
-- ARGV[1] purchaseId
-- ARGV[2] userId
--
-- Returns 1 when this call voided the hold (and forgot the buyer of this purchase), 0 when
-- nothing changed.

if redis.call('HGET', KEYS[1], ARGV[1]) ~= 'HELD' then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], 'VOID')
local buyer = redis.call('HGET', KEYS[2], ARGV[2])
if buyer and string.sub(buyer, 1, #ARGV[1] + 1) == ARGV[1] .. '|' then
  redis.call('HDEL', KEYS[2], ARGV[2])
end
return 1
