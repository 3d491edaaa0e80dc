package io.flashsale.workflows.purchase;

/** A payment confirmation from the payment provider; the id makes paying idempotent. */
public record PaymentRequest(String paymentId) {}
