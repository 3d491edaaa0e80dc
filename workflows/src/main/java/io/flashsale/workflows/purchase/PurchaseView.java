package io.flashsale.workflows.purchase;

import java.time.Instant;

/** What the {@code status} query, the updates and the workflow result report. */
public record PurchaseView(
        String purchaseId,
        String saleId,
        String userId,
        PurchaseStatus status,
        Long orderId,
        Instant payDeadline,
        String paymentId,
        String reason) {}
