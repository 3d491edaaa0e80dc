package io.flashsale.stores.audit;

import java.util.List;

/**
 * What a repair changed in Redis, and the audit afterwards.
 *
 * @param saleReloaded Redis had lost the sale's meta: it was loaded again from MySQL
 * @param holdsRestored purchases with a PENDING_PAYMENT or PAID order whose hold was made HELD
 * @param holdsReleased HELD holds of purchases that ended without a sale, made RELEASED
 * @param buyersRestored users with an order that Redis had forgotten (they stay unable to buy twice)
 * @param stockBefore null when Redis had no stock key
 * @param stockAfter total minus HELD holds
 */
public record RepairReport(
        String saleId,
        boolean saleReloaded,
        List<String> holdsRestored,
        List<String> holdsReleased,
        long buyersRestored,
        Long stockBefore,
        long stockAfter,
        AuditReport audit) {}
