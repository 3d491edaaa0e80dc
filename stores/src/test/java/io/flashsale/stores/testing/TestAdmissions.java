package io.flashsale.stores.testing;

import io.flashsale.stores.admission.Admission;
import io.flashsale.stores.admission.AdmissionGate;
import io.flashsale.stores.admission.RateLimits;

/** Admissions for tests that set up purchases: the api's gate, with no token bucket in the way. */
public final class TestAdmissions {

    /** A client under no limit; a sale's own buckets (its meta) still apply. */
    private static final AdmissionGate.Client UNLIMITED = new AdmissionGate.Client("127.0.0.1", RateLimits.NONE);

    private TestAdmissions() {}

    /** Runs the gate's script once; nothing is written unless the outcome is ADMITTED. */
    public static Admission admit(AdmissionGate gate, String saleId, String userId, String idempotencyKey) {
        return gate.admit(saleId, userId, idempotencyKey, UNLIMITED);
    }
}
