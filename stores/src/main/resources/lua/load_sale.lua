-- load_sale.lua: puts a sale into Redis once. Never resets a running sale: meta and stock are
-- written only when the meta hash is absent.
--
-- KEYS[1] meta        hash {sale:ID}:meta
-- KEYS[2] stock       string {sale:ID}:stock
-- KEYS[3] admissions  stream {sale:ID}:admissions (its consumer group "relay" is created here)
-- ARGV[1] opens       epoch millis the sale opens at
-- ARGV[2] closes      epoch millis the sale closes at, "" = never
-- ARGV[3] payTimeoutSeconds
-- ARGV[4] total       units of the sale
-- ARGV[5] available   units to put on sale (the stock)
-- ARGV[6] rlUserCapacity     per-sale rate-limit overrides (see rate_limit.lua), each "" = use
-- ARGV[7] rlUserRefill       the api's configured default; written with the meta, so only
-- ARGV[8] rlAddressCapacity  when the sale is loaded now (MySQL keeps them too, so a reload
-- ARGV[9] rlAddressRefill    after Redis lost the sale restores them)
-- ARGV[10] priceMinor         the unit price, so that it can be read without MySQL (payments,
-- ARGV[11] currency           the buyer's status)
-- ARGV[12] stock-returned channel: the sale id is announced there when the sale was loaded now, so
-- ARGV[13] saleId                  no api keeps a sold-out mark from before Redis lost the sale
--
-- Returns 1 when the sale was loaded now, 0 when it was loaded before (nothing changed).
-- The consumer group is created in both cases when missing (XGROUP CREATE ... MKSTREAM).

redis.pcall('XGROUP', 'CREATE', KEYS[3], 'relay', '0', 'MKSTREAM')
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'opens', ARGV[1], 'closes', ARGV[2], 'payTimeoutSeconds', ARGV[3], 'total', ARGV[4],
  'priceMinor', ARGV[10], 'currency', ARGV[11])
redis.call('SET', KEYS[2], ARGV[5])
local overrides = {'rlUserCapacity', 'rlUserRefill', 'rlAddressCapacity', 'rlAddressRefill'}
for i, field in ipairs(overrides) do
  if ARGV[5 + i] and ARGV[5 + i] ~= '' then
    redis.call('HSET', KEYS[1], field, ARGV[5 + i])
  end
end
redis.call('PUBLISH', ARGV[12], ARGV[13])
return 1
