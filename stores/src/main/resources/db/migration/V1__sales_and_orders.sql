-- Sales and their orders. MySQL is the final authority:
--   available + count(orders PENDING_PAYMENT or PAID) = total, available >= 0.

CREATE TABLE sales (
    id                  VARCHAR(40)  NOT NULL,
    name                VARCHAR(200) NOT NULL,
    total               INT          NOT NULL,
    available           INT          NOT NULL,
    starts_at           TIMESTAMP(3) NULL DEFAULT NULL,
    ends_at             TIMESTAMP(3) NULL DEFAULT NULL,
    pay_timeout_seconds INT          NOT NULL,
    created_at          TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    PRIMARY KEY (id),
    CONSTRAINT sales_available_not_negative CHECK (available >= 0),
    CONSTRAINT sales_available_within_total CHECK (available <= total)
);

CREATE TABLE orders (
    id           BIGINT       NOT NULL AUTO_INCREMENT,
    purchase_id  VARCHAR(160) NOT NULL,
    sale_id      VARCHAR(40)  NOT NULL,
    user_id      VARCHAR(64)  NOT NULL,
    status       VARCHAR(20)  NOT NULL,
    payment_id   VARCHAR(64)  NULL DEFAULT NULL,
    pay_deadline TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    created_at   TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    updated_at   TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
    PRIMARY KEY (id),
    CONSTRAINT orders_one_per_purchase UNIQUE (purchase_id),
    CONSTRAINT orders_one_per_user UNIQUE (sale_id, user_id),
    CONSTRAINT orders_payment_used_once UNIQUE (payment_id),
    CONSTRAINT orders_sale FOREIGN KEY (sale_id) REFERENCES sales (id),
    INDEX orders_by_sale_status (sale_id, status)
);
