package io.flashsale.chaos;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A chaos run as plain text for its printed report: the operations by kind and outcome, the
 * answers behind them, then each violation with the operations it rests on.
 */
final class RunTable {

    private static final String ROW = "%-18s%8s%8s%9s%8s%n";

    private RunTable() {}

    /** Per kind present in the history, how many operations ended each way (zeros included). */
    static SortedMap<Op.Kind, SortedMap<Op.Outcome, Long>> summary(List<Op> history) {
        SortedMap<Op.Kind, SortedMap<Op.Outcome, Long>> counts = new TreeMap<>();
        for (Op op : history) {
            counts.computeIfAbsent(op.kind(), kind -> zeros()).merge(op.outcome(), 1L, Long::sum);
        }
        return counts;
    }

    /**
     * The run as plain text: operations by kind and outcome, how each kind was answered, then
     * every violation followed by its operations.
     */
    static String format(List<Op> history, List<Violation> violations) {
        StringBuilder text = new StringBuilder();
        operations(history, text);
        text.append('\n');
        answers(history, text);
        text.append('\n');
        violations(violations, text);
        return text.toString();
    }

    /** One operation on one line: what was sent, for what, and how it was answered when. */
    static String describe(Op op) {
        String about = op.purchaseId().isEmpty() ? "sale " + op.saleId() + " user " + op.userId() : op.purchaseId();
        String key = op.key().isEmpty() ? "" : " key " + op.key();
        String amount = op.amountMinor() == 0 ? "" : " amount " + op.amountMinor();
        String answered = op.answeredAtMillis() < 0 ? "?" : String.valueOf(op.answeredAtMillis());
        return "#" + op.id() + " " + op.kind() + " " + about + key + amount + " -> " + answer(op) + " ("
                + op.invokedAtMillis() + ".." + answered + " ms)";
    }

    private static void operations(List<Op> history, StringBuilder text) {
        text.append(String.format(ROW, "operations", "OK", "FAIL", "UNKNOWN", "total"));
        SortedMap<Op.Outcome, Long> totals = zeros();
        summary(history).forEach((kind, outcomes) -> {
            row(kind.name(), outcomes, text);
            outcomes.forEach((outcome, count) -> totals.merge(outcome, count, Long::sum));
        });
        row("total", totals, text);
    }

    private static void row(String label, Map<Op.Outcome, Long> outcomes, StringBuilder text) {
        long total = outcomes.values().stream().mapToLong(Long::longValue).sum();
        text.append(String.format(
                ROW,
                label,
                outcomes.get(Op.Outcome.OK),
                outcomes.get(Op.Outcome.FAIL),
                outcomes.get(Op.Outcome.UNKNOWN),
                total));
    }

    /** How each kind was answered: status, problem type and purchase status, counted. */
    private static void answers(List<Op> history, StringBuilder text) {
        text.append("answers\n");
        SortedMap<Op.Kind, SortedMap<String, Long>> answers = new TreeMap<>();
        for (Op op : history) {
            answers.computeIfAbsent(op.kind(), kind -> new TreeMap<>()).merge(answer(op), 1L, Long::sum);
        }
        answers.forEach((kind, counts) ->
                counts.forEach((answer, count) -> text.append(String.format("%-18s%-40s%7d%n", kind, answer, count))));
    }

    private static void violations(List<Violation> violations, StringBuilder text) {
        if (violations.isEmpty()) {
            text.append("violations: none\n");
            return;
        }
        text.append("violations: ").append(violations.size()).append('\n');
        for (Violation violation : violations) {
            text.append('[')
                    .append(violation.rule())
                    .append("] ")
                    .append(violation.detail())
                    .append('\n');
            violation
                    .ops()
                    .forEach(op -> text.append("    ").append(describe(op)).append('\n'));
        }
    }

    private static String answer(Op op) {
        if (op.status() == 0) {
            return "no answer";
        }
        return Stream.of(String.valueOf(op.status()), op.problemType(), op.purchaseStatus())
                .filter(part -> !part.isEmpty())
                .collect(Collectors.joining(" "));
    }

    private static SortedMap<Op.Outcome, Long> zeros() {
        SortedMap<Op.Outcome, Long> zeros = new TreeMap<>();
        for (Op.Outcome outcome : Op.Outcome.values()) {
            zeros.put(outcome, 0L);
        }
        return zeros;
    }
}
