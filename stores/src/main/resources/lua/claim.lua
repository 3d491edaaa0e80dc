-- claim.lua: takes over admission entries a relay consumer read but never acknowledged (it died).
--
-- KEYS[1] admissions  stream {sale:ID}:admissions (consumer group "relay")
-- ARGV[1] consumer    the claiming consumer
-- ARGV[2] minIdle     milliseconds an entry must have been idle
-- ARGV[3] count       at most this many entries per XAUTOCLAIM page (at most 10 pages, from 0-0)
--
-- Returns the claimed entries as {{id, {field, value, ...}}, ...}. Entries deleted meanwhile are
-- dropped from the pending list by Redis 7 and not returned (Redis 6.2 returns them with no fields).
-- Returns no entries when the stream or its group does not exist (Redis lost the sale: nothing of
-- it is pending); any other error is raised.

local entries = {}
local cursor = '0-0'
for _ = 1, 10 do
  local page = redis.pcall('XAUTOCLAIM', KEYS[1], 'relay', ARGV[1], ARGV[2], cursor, 'COUNT', ARGV[3])
  if page.err then
    if string.sub(page.err, 1, 7) == 'NOGROUP' then
      return entries
    end
    return redis.error_reply(page.err)
  end
  for _, entry in ipairs(page[2]) do
    entries[#entries + 1] = entry
  end
  cursor = page[1]
  if cursor == '0-0' or #entries >= tonumber(ARGV[3]) then
    break
  end
end
return entries
