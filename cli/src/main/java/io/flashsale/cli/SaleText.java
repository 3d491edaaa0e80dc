package io.flashsale.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** A sale view ({@code GET /api/sales/{id}}) and other answers of the api as {@code bin/flashsale} prints them. */
final class SaleText {

    private static final String ROW = "%-24s %-12s %7s %7s %7s %8s %6s %8s %9s%n";
    /** {@code {field}}, {@code {parent/field}} or {@code {field|shown when missing}}. */
    private static final Pattern FIELD = Pattern.compile("\\{([\\w/]+)(?:\\|([^}]*))?}");

    private SaleText() {}

    /** The sale in a block of labelled lines, its changes oldest first; states are judged at {@code now}. */
    static String of(JsonNode sale, Instant now) {
        String template =
                """
                sale      {id} ({name}), {price/amountMinor} {price/currency} a unit, pay within {payTimeout}
                window    {startsAt|creation} to {endsAt|no end}: %s
                units     total {total}, available {available}, Redis {redisStock}
                orders    PENDING_PAYMENT {pendingPayment}, PAID {paid}, EXPIRED {expired}, CANCELLED {cancelled}
                """;
        StringBuilder text = new StringBuilder(fill(template.formatted(state(sale, now)), sale));
        String label = "changes";
        for (JsonNode change : sale.path("changes")) {
            text.append(String.format(Locale.ROOT, "%-10s%s%n", label, fill(change(change), change)));
            label = "";
        }
        return text.toString();
    }

    private static String change(JsonNode change) {
        return "{changedAt}  {changedBy}  {kind}"
                + switch (change.path("kind").asText()) {
                    case "RESTOCK" -> " +{units} (key {key})";
                    case "WITHDRAW" -> " {units} of {unitsAsked} asked (key {key})";
                    case "CLOSE" -> ", ends {endsAt|no end}";
                    default -> ", window {startsAt|creation} to {endsAt|no end}";
                };
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

    /** {@code template} with each {@link #FIELD} replaced by that field of {@code node} ({@code -} when missing or null). */
    static String fill(String template, JsonNode node) {
        return FIELD.matcher(template)
                .replaceAll(field -> Matcher.quoteReplacement(
                        text(node, field.group(1), field.group(2) == null ? "-" : field.group(2))));
    }

    /** The field at {@code path} of {@code node} as text, {@code otherwise} when missing or null. */
    private static String text(JsonNode node, String path, String otherwise) {
        JsonNode value = node.at("/" + path);
        return value.isMissingNode() || value.isNull()
                ? otherwise
                : value.isValueNode() ? value.asText() : value.toString();
    }

    /** open, not open yet, closed, or archived (ended, every purchase final, Redis keys gone). */
    static String state(JsonNode sale, Instant now) {
        if (!text(sale, "redisArchivedAt", "-").equals("-")) {
            return "archived";
        }
        String ends = text(sale, "endsAt", "-");
        String starts = text(sale, "startsAt", "-");
        if (!ends.equals("-") && !now.isBefore(Instant.parse(ends))) {
            return "closed";
        }
        return !starts.equals("-") && now.isBefore(Instant.parse(starts)) ? "not open yet" : "open";
    }
}
