-- Ids compare byte-exactly, as they do in Redis and Temporal: `alice` is not `Alice`. Under the
-- server's default _ci collation MySQL/MariaDB found alice's order for Alice's purchase id and
-- refused Alice's order as a duplicate of alice's.
--
-- Every id column (sale, user, purchase and payment ids) gets the binary collation of utf8mb4;
-- status values are written by the code only and stay as they are. The foreign key is dropped
-- while its two columns change (both MySQL 8 and MariaDB refuse to change a referenced column's
-- collation under it) and created again.

ALTER TABLE orders DROP FOREIGN KEY orders_sale;

ALTER TABLE sales
    MODIFY id VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL;

ALTER TABLE orders
    MODIFY purchase_id VARCHAR(160) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    MODIFY sale_id     VARCHAR(40)  CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    MODIFY user_id     VARCHAR(64)  CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    MODIFY payment_id  VARCHAR(64)  CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL DEFAULT NULL;

ALTER TABLE orders
    ADD CONSTRAINT orders_sale FOREIGN KEY (sale_id) REFERENCES sales (id);
