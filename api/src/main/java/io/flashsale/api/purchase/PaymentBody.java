package io.flashsale.api.purchase;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** The payment provider's confirmation id; it makes paying idempotent. */
record PaymentBody(@NotNull @Pattern(regexp = "[A-Za-z0-9._:-]{1,64}") String paymentId) {}
