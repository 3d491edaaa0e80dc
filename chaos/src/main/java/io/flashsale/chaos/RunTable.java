package io.flashsale.chaos;

import static io.flashsale.chaos.Op.Outcome.FAIL;
import static io.flashsale.chaos.Op.Outcome.OK;
import static io.flashsale.chaos.Op.Outcome.UNKNOWN;
import static java.util.stream.Collectors.collectingAndThen;
import static java.util.stream.Collectors.counting;
import static java.util.stream.Collectors.groupingBy;
import static java.util.stream.Collectors.joining;
import static java.util.stream.Collectors.toList;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/** A chaos run's printed report: operations by kind and outcome, their answers, each violation with its operations. */
final class RunTable {

    private static final String ROW = "%-18s%8s%8s%9s%8s%n";

    private RunTable() {}

    /** Per kind present in the history, how many operations ended each way (zeros included). */
    static SortedMap<Op.Kind, Map<Op.Outcome, Long>> summary(List<Op> history) {
        return history.stream()
                .collect(groupingBy(Op::kind, TreeMap::new, collectingAndThen(toList(), RunTable::outcomes)));
    }

    static String format(List<Op> history, List<Checker.Violation> violations) {
        StringBuilder text = new StringBuilder(String.format(ROW, "operations", "OK", "FAIL", "UNKNOWN", "total"));
        Map<Object, Map<Op.Outcome, Long>> rows = new LinkedHashMap<>(summary(history));
        rows.put("total", outcomes(history));
        rows.forEach((label, n) -> text.append(String.format(
                ROW, label, n.get(OK), n.get(FAIL), n.get(UNKNOWN), n.get(OK) + n.get(FAIL) + n.get(UNKNOWN))));
        text.append("\nanswers\n");
        history.stream()
                .collect(groupingBy(Op::kind, TreeMap::new, groupingBy(RunTable::answer, TreeMap::new, counting())))
                .forEach((kind, counts) -> counts.forEach(
                        (answer, count) -> text.append(String.format("%-18s%-40s%7d%n", kind, answer, count))));
        text.append("\nviolations: " + (violations.isEmpty() ? "none" : violations.size()) + "\n");
        for (Checker.Violation violation : violations) {
            text.append("[" + violation.rule() + "] " + violation.detail() + "\n");
            violation.ops().forEach(op -> text.append("    " + describe(op) + "\n"));
        }
        return text.toString();
    }

    /** One operation on one line: what was sent, for what, and how it was answered when. */
    private static String describe(Op op) {
        String about =
                op.kind().buy() || op.kind().byOperator() ? Facts.buyer(op.saleId(), op.userId()) : op.purchaseId();
        return "#" + op.id() + " " + op.kind() + " " + about + (op.key().isEmpty() ? "" : " key " + op.key())
                + (op.amountMinor() == 0 ? "" : " amount " + op.amountMinor()) + " -> " + answer(op) + " ("
                + op.invokedAtMillis() + ".." + (op.answeredAtMillis() < 0 ? "?" : op.answeredAtMillis()) + " ms)";
    }

    private static Map<Op.Outcome, Long> outcomes(List<Op> ops) {
        Map<Op.Outcome, Long> counts = new EnumMap<>(Map.of(OK, 0L, FAIL, 0L, UNKNOWN, 0L));
        ops.forEach(op -> counts.merge(op.outcome(), 1L, Long::sum));
        return counts;
    }

    private static String answer(Op op) {
        return op.status() == 0
                ? "no answer"
                : Stream.of(String.valueOf(op.status()), op.problemType(), op.purchaseStatus())
                        .filter(part -> !part.isEmpty())
                        .collect(joining(" "));
    }
}
