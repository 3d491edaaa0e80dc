package io.flashsale.stores.audit;

import java.util.List;

/** An audit's verdict on a sale; in JSON its name, as {@code bin/flashsale audit} reads it. */
public enum AuditVerdict {
    /** Every invariant holds. */
    PASS,
    /** At least one invariant is violated. */
    FAIL;

    static AuditVerdict of(List<Violation> violations) {
        return violations.isEmpty() ? PASS : FAIL;
    }
}
