package io.flashsale.chaos;

import static java.util.stream.Collectors.counting;
import static java.util.stream.Collectors.groupingBy;
import static java.util.stream.Collectors.toMap;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** A chaos run's printed report: operations by kind and outcome, their answers, each violation with its operations. */
final class RunTable {

    private static final String ROW = "%-18s%8s%8s%9s%8s%n";

    private RunTable() {}

    /** Per kind present in the history, how many operations ended each way (zeros included). */
    static SortedMap<Op.Kind, SortedMap<Op.Outcome, Long>> summary(List<Op> history) {
        SortedMap<Op.Kind, SortedMap<Op.Outcome, Long>> counts = new TreeMap<>();
        history.forEach(op -> counts.computeIfAbsent(op.kind(), kind -> zeros()).merge(op.outcome(), 1L, Long::sum));
        return counts;
    }

    static String format(List<Op> history, List<Violation> violations) {
        StringBuilder text = new StringBuilder(String.format(ROW, "operations", "OK", "FAIL", "UNKNOWN", "total"));
        SortedMap<Op.Outcome, Long> totals = zeros();
        summary(history).forEach((kind, outcomes) -> {
            row(kind.name(), outcomes, text);
            outcomes.forEach((outcome, count) -> totals.merge(outcome, count, Long::sum));
        });
        row("total", totals, text);
        text.append("\nanswers\n");
        history.stream()
                .collect(groupingBy(Op::kind, TreeMap::new, groupingBy(RunTable::answer, TreeMap::new, counting())))
                .forEach((kind, counts) -> counts.forEach(
                        (answer, count) -> text.append(String.format("%-18s%-40s%7d%n", kind, answer, count))));
        text.append("\nviolations: ")
                .append(violations.isEmpty() ? "none" : violations.size())
                .append('\n');
        for (Violation violation : violations) {
            text.append("[" + violation.rule() + "] " + violation.detail() + "\n");
            violation.ops().forEach(op -> text.append("    " + describe(op) + "\n"));
        }
        return text.toString();
    }

    /** One operation on one line: what was sent, for what, and how it was answered when. */
    private static String describe(Op op) {
        String about = op.purchaseId().isEmpty() ? "sale " + op.saleId() + " user " + op.userId() : op.purchaseId();
        String key = op.key().isEmpty() ? "" : " key " + op.key();
        String amount = op.amountMinor() == 0 ? "" : " amount " + op.amountMinor();
        String answered = op.answeredAtMillis() < 0 ? "?" : String.valueOf(op.answeredAtMillis());
        return "#" + op.id() + " " + op.kind() + " " + about + key + amount + " -> " + answer(op) + " ("
                + op.invokedAtMillis() + ".." + answered + " ms)";
    }

    private static void row(String label, SortedMap<Op.Outcome, Long> outcomes, StringBuilder text) {
        long total = outcomes.values().stream().mapToLong(Long::longValue).sum();
        text.append(String.format(
                ROW,
                label,
                outcomes.get(Op.Outcome.OK),
                outcomes.get(Op.Outcome.FAIL),
                outcomes.get(Op.Outcome.UNKNOWN),
                total));
    }

    private static String answer(Op op) {
        return op.status() == 0
                ? "no answer"
                : Stream.of(String.valueOf(op.status()), op.problemType(), op.purchaseStatus())
                        .filter(part -> !part.isEmpty())
                        .collect(Collectors.joining(" "));
    }

    private static SortedMap<Op.Outcome, Long> zeros() {
        return Stream.of(Op.Outcome.values())
                .collect(toMap(outcome -> outcome, outcome -> 0L, Long::sum, TreeMap::new));
    }
}
