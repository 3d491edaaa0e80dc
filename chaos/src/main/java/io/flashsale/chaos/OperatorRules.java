package io.flashsale.chaos;

import io.flashsale.stores.audit.AuditReport;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/** The checker's rules on the operators' changes of the sales, made while buyers raced. */
final class OperatorRules {

    private OperatorRules() {}

    /**
     * Every change recorded once, and the units add up: a restock or withdrawal answered 200 is
     * recorded under its key as sent (a repeat finds the first), one answered change-conflict finds
     * its key recorded otherwise, and each sale's audited total is its creation plus its changes.
     */
    static void changesRecordedOnce(Facts facts, BiConsumer<String, List<Op>> found) {
        for (Op op : facts.history()) {
            if (op.kind() != Op.Kind.RESTOCK && op.kind() != Op.Kind.WITHDRAW) {
                continue;
            }
            List<Facts.Change> recorded = facts.changes().stream()
                    .filter(change ->
                            change.saleId().equals(op.saleId()) && op.key().equals(change.changeKey()))
                    .toList();
            boolean asSent = recorded.size() == 1
                    && recorded.get(0).kind().equals(op.kind().name())
                    && Objects.equals(recorded.get(0).unitsAsked(), (int) op.amountMinor());
            String change = op.kind() + " " + op.key() + " of " + op.amountMinor();
            if (op.outcome() == Op.Outcome.OK && !asSent) {
                found.accept(change + " answered 200, recorded " + recorded, List.of(op));
            } else if ("change-conflict".equals(op.problemType()) && (recorded.isEmpty() || asSent)) {
                found.accept(change + " answered change-conflict, recorded " + recorded, List.of(op));
            }
        }
        for (Facts.Sale sale : facts.sales()) {
            int total = sale.created()
                    + facts.changes().stream()
                            .filter(change -> change.saleId().equals(sale.saleId()))
                            .mapToInt(Facts.Change::units)
                            .sum();
            if (sale.audit() != null && sale.audit().total() != total) {
                found.accept(
                        "sale " + sale.saleId() + " was created with " + sale.created() + " units and its changes"
                                + " make " + total + ", its audit says "
                                + sale.audit().total(),
                        List.of());
            }
        }
    }

    /**
     * Redis offers exactly MySQL's units once quiet (I4): above is a unit MySQL lacks (a withdrawal or
     * repair that left Redis ahead); below, units lost to buyers.
     */
    static void redisNeverAboveMySql(Facts facts, BiConsumer<String, List<Op>> found) {
        for (Facts.Sale sale : facts.sales()) {
            AuditReport audit = sale.audit();
            if (audit != null && audit.redisStock() != null && audit.redisStock() != audit.mysqlAvailable()) {
                found.accept(
                        "sale " + sale.saleId() + ": Redis offers " + audit.redisStock() + " units, MySQL has "
                                + audit.mysqlAvailable(),
                        List.of());
            }
        }
    }

    /** A closed sale admits nobody: no purchase sent after a CLOSE's 200 is answered 202. */
    static void closedSaleAdmitsNobody(Facts facts, BiConsumer<String, List<Op>> found) {
        facts.history().stream()
                .filter(close -> close.kind() == Op.Kind.CLOSE && close.outcome() == Op.Outcome.OK)
                .forEach(close -> facts.history().stream()
                        .filter(op -> op.kind().buy()
                                && op.saleId().equals(close.saleId())
                                && op.invokedAtMillis() > close.answeredAtMillis()
                                && op.status() == 202)
                        .findFirst()
                        .ifPresent(op -> found.accept(
                                "sale " + close.saleId() + " admitted a buyer after its close was answered",
                                List.of(close, op))));
    }
}
