package io.flashsale.api.problem;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.sale.SaleChange;
import org.junit.jupiter.api.Test;

/** The one rule for a caller's Idempotency-Key, and the keys it must keep out of the callers' hands. */
class IdempotencyKeysTest {

    @Test
    void acceptsTheKeysCallersUse() {
        assertThat(IdempotencyKeys.isValid("restock-1")).isTrue();
        assertThat(IdempotencyKeys.isValid("close")).isTrue();
        assertThat(IdempotencyKeys.isValid("a".repeat(64))).isTrue();
    }

    @Test
    void refusesEmptyLongAndOddKeys() {
        assertThat(IdempotencyKeys.isValid(null)).isFalse();
        assertThat(IdempotencyKeys.isValid("")).isFalse();
        assertThat(IdempotencyKeys.isValid("a".repeat(65))).isFalse();
        assertThat(IdempotencyKeys.isValid("two words")).isFalse();
    }

    @Test
    void neverAcceptsAKeyTheSystemRecordsItsOwnChangesUnder() {
        assertThat(IdempotencyKeys.isValid(SaleChange.CLOSE_KEY)).isFalse();
    }
}
