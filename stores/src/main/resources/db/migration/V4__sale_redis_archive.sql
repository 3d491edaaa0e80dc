-- When a sale's Redis side was archived: the sale had ended and every purchase was final, so its
-- Redis keys (stock, buyers, holds, admission stream) were deleted and only a short-lived marker
-- stays. NULL: the sale still lives in Redis. From then on MySQL alone answers for the sale (sale
-- view, audit) and nothing loads it into Redis again.

ALTER TABLE sales
    ADD COLUMN redis_archived_at TIMESTAMP(3) NULL DEFAULT NULL,
    ADD INDEX sales_redis_live (redis_archived_at, ends_at);
