package io.flashsale.cli.demo;

import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.audit.AuditVerdict;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What one demo sale came to: the answers of every wave by outcome ({@code requests}), the purchases
 * admitted ({@code orders}, one order each), each payment's outcome and the api's audit of the sale.
 */
record DemoResult(
        String sale,
        Map<String, Long> requests,
        long orders,
        Map<String, Long> payments,
        AuditReport audit,
        Optional<URI> purchasesInWebUi) {

    /** Units bought again after their order expired or was cancelled: orders beyond the units. */
    long resold() {
        return Math.max(0, orders - audit.total());
    }

    boolean settled() {
        return audit.pendingPayment() == 0;
    }

    /** Settled, and every order admitted ended PAID, EXPIRED or CANCELLED. */
    boolean addsUp() {
        return settled() && orders == (long) audit.paid() + audit.expired() + audit.cancelled();
    }

    /** The payments answered PAID are exactly the PAID orders. */
    boolean paymentsAgree() {
        return payments.getOrDefault(PurchaseStatus.PAID.name(), 0L) == audit.paid();
    }

    /** Counts add up, payments agree and the audit passed. */
    boolean passed() {
        return addsUp() && paymentsAgree() && audit.result() == AuditVerdict.PASS;
    }

    List<String> lines() {
        String pending = settled() ? "" : " (+ " + audit.pendingPayment() + " PENDING_PAYMENT)";
        List<String> lines = new ArrayList<>(List.of(
                "requests   %d answered: %s%s".formatted(total(requests), text(requests), rateLimited()),
                "orders     %d for %d units, %d resold (bought again after an order expired or was cancelled)"
                        .formatted(orders, audit.total(), resold()),
                "paid       %d (payments sent: %d, %s)".formatted(audit.paid(), total(payments), text(payments)),
                "expired    " + audit.expired(),
                "cancelled  " + audit.cancelled(),
                "adds up    %d orders = %d paid + %d expired + %d cancelled%s: %s"
                        .formatted(
                                orders,
                                audit.paid(),
                                audit.expired(),
                                audit.cancelled(),
                                pending,
                                addsUp() ? "yes" : "NO"),
                "audit      " + audit.result()));
        audit.violations().forEach(v -> lines.add("           " + v.invariant() + ": " + v.detail()));
        purchasesInWebUi.ifPresent(link -> lines.add("Web UI     " + link));
        return lines;
    }

    private String rateLimited() {
        return requests.containsKey("rate-limited") ? "" : " (none rate-limited)";
    }

    private static long total(Map<String, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    private static String text(Map<String, Long> counts) {
        return counts.isEmpty()
                ? "none"
                : new TreeMap<>(counts)
                        .entrySet().stream()
                                .map(e -> e.getKey() + " " + e.getValue())
                                .collect(Collectors.joining(", "));
    }
}
