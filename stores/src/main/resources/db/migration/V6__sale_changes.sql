-- What operators changed on a live sale, one row per change, written in the same transaction as the
-- change of the sale's row: who (the admin token's subject), when, what. The sale view shows them;
-- the audit compares the unit changes with those Redis applied ({sale:ID}:changes), so a change
-- half done (one store written, the other not yet) is told apart from drift.
--
--   kind         CLOSE, MOVE, RESTOCK or WITHDRAW
--   change_key   RESTOCK and WITHDRAW: the request's Idempotency-Key; CLOSE: 'close' (a sale closes
--                once); MOVE: NULL (moving to the window the sale has changes nothing, records nothing)
--   units_asked  RESTOCK and WITHDRAW: the units the request named
--   units        how much total (and available) changed: +n for a restock, minus the units actually
--                taken for a withdrawal (only unsold, unheld units are taken), 0 otherwise
--   starts_at, ends_at  CLOSE and MOVE: the window afterwards

CREATE TABLE sale_changes (
    id          BIGINT       NOT NULL AUTO_INCREMENT,
    sale_id     VARCHAR(40)  CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    kind        VARCHAR(20)  NOT NULL,
    change_key  VARCHAR(64)  CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL DEFAULT NULL,
    units_asked INT          NULL DEFAULT NULL,
    units       INT          NOT NULL DEFAULT 0,
    starts_at   TIMESTAMP(3) NULL DEFAULT NULL,
    ends_at     TIMESTAMP(3) NULL DEFAULT NULL,
    changed_by  VARCHAR(64)  CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    changed_at  TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    PRIMARY KEY (id),
    CONSTRAINT sale_changes_once UNIQUE (sale_id, change_key),
    CONSTRAINT sale_changes_sale FOREIGN KEY (sale_id) REFERENCES sales (id),
    CONSTRAINT sale_changes_kind CHECK (kind IN ('CLOSE', 'MOVE', 'RESTOCK', 'WITHDRAW'))
);
