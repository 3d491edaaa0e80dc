-- A close is recorded under '#close' instead of 'close': '#' is outside the Idempotency-Key alphabet
-- callers may use ([A-Za-z0-9._:-]), so a restock or withdrawal under the key 'close' can no longer
-- take the close's place in UNIQUE(sale_id, change_key) and make every close of the sale fail.
-- A sale that has a restock or withdrawal keyed 'close' has no close recorded, so nothing collides.

UPDATE sale_changes SET change_key = '#close' WHERE kind = 'CLOSE' AND change_key = 'close';
