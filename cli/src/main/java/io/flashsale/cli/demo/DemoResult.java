package io.flashsale.cli.demo;

import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.audit.AuditVerdict;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What one demo sale came to. {@code orders} are the purchases admitted (each answered 202 once
 * and writes one order); {@code pendingPayment}, {@code paid}, {@code expired} and {@code
 * cancelled} are the orders as MySQL ended them (the audit's counts). Once settled, every order
 * ended one of three ways: {@code orders = paid + expired + cancelled}. An order that expired or
 * was cancelled gave its unit back, and a later buyer bought it again: {@link #resold()}.
 *
 * @param requests purchase answers by outcome, every wave of buyers together
 * @param payments outcome of each payment sent (the purchase's final status, or "error")
 * @param audit the audit's verdict
 * @param purchasesInWebUi the sale's purchases in the Temporal Web UI, when one answered
 */
record DemoResult(
        String sale,
        int units,
        Map<String, Long> requests,
        long orders,
        int pendingPayment,
        int paid,
        int expired,
        int cancelled,
        Map<String, Long> payments,
        AuditVerdict audit,
        Optional<URI> purchasesInWebUi) {

    static DemoResult of(
            String sale,
            Map<String, Long> requests,
            long orders,
            Map<String, Long> payments,
            AuditReport audit,
            Optional<URI> purchasesInWebUi) {
        return new DemoResult(
                sale,
                audit.total(),
                requests,
                orders,
                audit.pendingPayment(),
                audit.paid(),
                audit.expired(),
                audit.cancelled(),
                payments,
                audit.result(),
                purchasesInWebUi);
    }

    /** Units bought again after their order expired or was cancelled: orders beyond the units. */
    long resold() {
        return Math.max(0, orders - units);
    }

    /** No order awaits payment any more. */
    boolean settled() {
        return pendingPayment == 0;
    }

    /** Settled, and every order admitted ended PAID, EXPIRED or CANCELLED. */
    boolean addsUp() {
        return settled() && orders == (long) paid + expired + cancelled;
    }

    /** The payments answered PAID are exactly the PAID orders. */
    boolean paymentsAgree() {
        return payments.getOrDefault(PurchaseStatus.PAID.name(), 0L) == paid;
    }

    /** Counts add up, payments agree and the audit passed. */
    boolean passed() {
        return addsUp() && paymentsAgree() && audit == AuditVerdict.PASS;
    }

    /** The result as the demo prints it, one line each. */
    List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add(line(
                "requests",
                "%d answered: %s%s"
                        .formatted(
                                total(requests),
                                text(requests),
                                requests.containsKey("rate-limited") ? "" : " (none rate-limited)")));
        lines.add(line(
                "orders",
                "%d for %d units, %d resold (bought again after an order expired or was cancelled)"
                        .formatted(orders, units, resold())));
        lines.add(line("paid", "%d (payments sent: %d, %s)".formatted(paid, total(payments), text(payments))));
        lines.add(line("expired", Integer.toString(expired)));
        lines.add(line("cancelled", Integer.toString(cancelled)));
        lines.add(line(
                "adds up",
                "%d orders = %d paid + %d expired + %d cancelled%s: %s"
                        .formatted(
                                orders,
                                paid,
                                expired,
                                cancelled,
                                settled() ? "" : " (+ " + pendingPayment + " PENDING_PAYMENT)",
                                addsUp() ? "yes" : "NO")));
        lines.add(line("audit", audit.name()));
        purchasesInWebUi.ifPresent(link -> lines.add(line("Web UI", link.toString())));
        return lines;
    }

    private static String line(String label, String text) {
        return String.format(Locale.ROOT, "%-10s %s", label, text);
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
