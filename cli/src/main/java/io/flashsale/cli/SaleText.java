package io.flashsale.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** A sale view ({@code GET /api/sales/{id}}) as {@code bin/flashsale sale} prints it. */
final class SaleText {

    private static final String ROW = "%-24s %-12s %7s %7s %7s %8s %6s %8s %9s%n";

    private SaleText() {}

    /** The sale in a block of labelled lines, its changes oldest first; states are judged at {@code now}. */
    static String of(JsonNode sale, Instant now) {
        JsonNode price = sale.path("price");
        StringBuilder text = new StringBuilder(
                """
                sale      %s (%s), %s %s a unit, pay within %s
                window    %s to %s: %s
                units     total %d, available %d, Redis %s
                orders    PENDING_PAYMENT %d, PAID %d, EXPIRED %d, CANCELLED %d
                """
                        .formatted(
                                sale.path("id").asText(),
                                sale.path("name").asText(),
                                price.path("amountMinor").asText(),
                                price.path("currency").asText(),
                                sale.path("payTimeout").asText(),
                                text(sale, "startsAt", "creation"),
                                text(sale, "endsAt", "no end"),
                                state(sale, now),
                                sale.path("total").asInt(),
                                sale.path("available").asInt(),
                                text(sale, "redisStock", "-"),
                                sale.path("pendingPayment").asInt(),
                                sale.path("paid").asInt(),
                                sale.path("expired").asInt(),
                                sale.path("cancelled").asInt()));
        String label = "changes";
        for (JsonNode change : sale.path("changes")) {
            text.append(String.format(Locale.ROOT, "%-10s%s%n", label, change(change)));
            label = "";
        }
        return text.toString();
    }

    /** The header of {@link #row}. */
    static String header() {
        return ROW.formatted("SALE", "STATE", "TOTAL", "AVAIL", "REDIS", "PENDING", "PAID", "EXPIRED", "CANCELLED");
    }

    /** The sale in one row under {@link #header}. */
    static String row(JsonNode sale, Instant now) {
        List<Object> cells =
                cells(sale, "id", "total", "available", "redisStock", "pendingPayment", "paid", "expired", "cancelled");
        cells.add(1, state(sale, now));
        return ROW.formatted(cells.toArray());
    }

    /** The fields of {@code node} as text, {@code -} for one missing or null. */
    static List<Object> cells(JsonNode node, String... fields) {
        return Stream.of(fields).map(field -> text(node, field, "-")).collect(Collectors.toList());
    }

    /** open, not open yet, closed, or archived (ended, every purchase final, Redis keys gone). */
    static String state(JsonNode sale, Instant now) {
        if (!sale.path("redisArchivedAt").isMissingNode()
                && !sale.path("redisArchivedAt").isNull()) {
            return "archived";
        }
        if (instant(sale, "endsAt") != null && !now.isBefore(instant(sale, "endsAt"))) {
            return "closed";
        }
        return instant(sale, "startsAt") != null && now.isBefore(instant(sale, "startsAt")) ? "not open yet" : "open";
    }

    private static String change(JsonNode change) {
        String head = "%s  %s  %s"
                .formatted(
                        change.path("changedAt").asText(),
                        change.path("changedBy").asText(),
                        change.path("kind").asText());
        return head
                + switch (change.path("kind").asText()) {
                    case "RESTOCK" -> " +%d (key %s)"
                            .formatted(
                                    change.path("units").asInt(),
                                    change.path("key").asText());
                    case "WITHDRAW" -> " %d of %d asked (key %s)"
                            .formatted(
                                    change.path("units").asInt(),
                                    change.path("unitsAsked").asInt(),
                                    change.path("key").asText());
                    case "CLOSE" -> ", ends " + text(change, "endsAt", "no end");
                    default -> ", window " + text(change, "startsAt", "creation") + " to "
                            + text(change, "endsAt", "no end");
                };
    }

    static String text(JsonNode node, String field, String otherwise) {
        JsonNode value = node.path(field);
        return value.isMissingNode() || value.isNull() ? otherwise : value.asText();
    }

    private static Instant instant(JsonNode node, String field) {
        String value = text(node, field, null);
        return value == null ? null : Instant.parse(value);
    }
}
