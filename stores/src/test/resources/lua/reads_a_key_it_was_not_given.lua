-- reads_a_key_it_was_not_given.lua (tests only): what no script of the stores may do, read a key
-- that is not one of its KEYS.
--
-- KEYS[1] any key
-- ARGV[1] another key, read without being declared

redis.call('EXISTS', KEYS[1])
return redis.call('EXISTS', ARGV[1])
