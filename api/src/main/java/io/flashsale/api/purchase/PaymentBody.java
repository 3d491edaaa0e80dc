package io.flashsale.api.purchase;

import io.flashsale.stores.sale.Price;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/**
 * The payment service's confirmation: the provider's payment id (it makes paying idempotent) and the
 * amount that arrived, which must be the sale's price.
 */
record PaymentBody(
        @NotNull @Pattern(regexp = "[A-Za-z0-9._:-]{1,64}") String paymentId, @NotNull @Valid Price amount) {}
