package io.flashsale.stores.sale;

/** Orders of one sale by status (MySQL). */
public record SaleCounts(int pendingPayment, int paid, int expired, int cancelled) {}
