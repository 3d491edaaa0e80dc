-- Every sale has a unit price (minor units and an ISO 4217 code) and every order records the price
-- it was sold at, copied from its sale in the statement that writes the order. Sales from before
-- this migration get 0 XXX (no currency): no payment can match it. Orders from before stay NULL.

ALTER TABLE sales
    ADD COLUMN price_minor BIGINT  NOT NULL DEFAULT 0,
    ADD COLUMN currency    CHAR(3) NOT NULL DEFAULT 'XXX',
    ADD CONSTRAINT sales_price_not_negative CHECK (price_minor >= 0);

ALTER TABLE orders
    ADD COLUMN price_minor BIGINT  NULL DEFAULT NULL,
    ADD COLUMN currency    CHAR(3) NULL DEFAULT NULL;

-- Money the payment service reported for a purchase that can no longer be paid (expired,
-- cancelled, rejected, or paid already with another payment): it must go back to the buyer.
-- Idempotent by payment id: the provider's retries of one payment record one row.
CREATE TABLE payment_refunds (
    payment_id     VARCHAR(64)  CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    purchase_id    VARCHAR(160) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    sale_id        VARCHAR(40)  CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    amount_minor   BIGINT       NOT NULL,
    currency       CHAR(3)      NOT NULL,
    purchase_status VARCHAR(20) NOT NULL,
    created_at     TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    PRIMARY KEY (payment_id),
    INDEX payment_refunds_by_sale (sale_id)
);
