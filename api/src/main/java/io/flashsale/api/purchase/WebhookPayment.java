package io.flashsale.api.purchase;

import io.flashsale.stores.sale.Price;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** The payment provider's webhook body: which purchase, which payment, how much arrived. */
record WebhookPayment(
        @NotNull @Pattern(regexp = "[A-Za-z0-9._@-]{1,160}") String purchaseId,
        @NotNull @Pattern(regexp = "[A-Za-z0-9._:-]{1,64}") String paymentId,
        @NotNull @Valid Price amount) {}
