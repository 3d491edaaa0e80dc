-- A sale's own purchase rate limits (token buckets, see rate_limit.lua), overriding the api's
-- configured defaults; NULL = the default. Kept here, not only in the sale's Redis meta, so that a
-- sale reloaded into Redis (after Redis lost it: repair) keeps its limits.

ALTER TABLE sales
    ADD COLUMN user_bucket_capacity    INT    NULL DEFAULT NULL,
    ADD COLUMN user_bucket_refill      DOUBLE NULL DEFAULT NULL,
    ADD COLUMN address_bucket_capacity INT    NULL DEFAULT NULL,
    ADD COLUMN address_bucket_refill   DOUBLE NULL DEFAULT NULL,
    ADD CONSTRAINT sales_user_bucket_whole CHECK ((user_bucket_capacity IS NULL) = (user_bucket_refill IS NULL)),
    ADD CONSTRAINT sales_address_bucket_whole CHECK ((address_bucket_capacity IS NULL) = (address_bucket_refill IS NULL));
