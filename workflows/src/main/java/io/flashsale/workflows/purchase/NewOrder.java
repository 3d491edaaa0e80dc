package io.flashsale.workflows.purchase;

import java.time.Instant;

/** The order {@code createOrder} writes; {@code purchaseId} makes the write idempotent. */
public record NewOrder(String purchaseId, String saleId, String userId, Instant payDeadline) {}
