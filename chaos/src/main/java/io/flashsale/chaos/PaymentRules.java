package io.flashsale.chaos;

import io.flashsale.workflows.purchase.PurchaseStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** The checker's rules on payments: what they were answered, against orders and refund rows. */
final class PaymentRules {

    private PaymentRules() {}

    /**
     * Payments take effect only as sent and answered: one answered 200 paid its order with its id
     * (PurchaseCommands answers 200 only for the payment that paid; 202 is not checked); an order is
     * PAID only with an id a PAY or PAY_DUPLICATE of its purchase sent and not refused every time; a
     * wrong amount is refused 422 before any Update, so never answered 2xx and never paying.
     */
    static void paidOnlyAsSent(Facts facts, BiConsumer<String, List<Op>> found) {
        facts.history().stream()
                .filter(op -> op.kind() == Op.Kind.PAY_WRONG_AMOUNT && op.outcome() == Op.Outcome.OK)
                .forEach(op -> found.accept(
                        "payment " + op.key() + " of " + op.purchaseId() + " sent " + op.amountMinor()
                                + ", not the price, and was answered " + op.status(),
                        List.of(op)));
        payments(facts, op -> isPayment(op) && op.status() == 200).forEach(payment -> {
            Optional<Facts.Order> order = facts.orderOf(payment.purchaseId());
            if (order.isEmpty() || !paidWith(order.get(), payment.paymentId())) {
                found.accept(
                        "payment " + payment.paymentId() + " of " + payment.purchaseId()
                                + " was answered 200, but the order is "
                                + order.map(o -> Facts.ended(o.status(), o.paymentId()))
                                        .orElse("missing"),
                        facts.opsOf(payment.purchaseId()));
            }
        });
        Map<String, List<Op>> byPurchase = facts.byPurchase();
        for (Facts.Order order : facts.orders()) {
            if (order.status() != PurchaseStatus.PAID) {
                continue;
            }
            List<Op> ops = byPurchase.getOrDefault(order.purchaseId(), List.of());
            List<Op> sent = ops.stream()
                    .filter(op -> !op.kind().buy() && op.key().equals(order.paymentId()))
                    .toList();
            String paid = "the order of " + order.purchaseId() + " is PAID with " + order.paymentId() + ", ";
            if (sent.stream().anyMatch(op -> op.kind() == Op.Kind.PAY_WRONG_AMOUNT)) {
                found.accept(paid + "a payment of the wrong amount", ops);
            } else if (sent.stream().noneMatch(PaymentRules::isPayment)) {
                found.accept(paid + "which no payment of it sent", ops);
            } else if (sent.stream().allMatch(op -> op.outcome() == Op.Outcome.FAIL)) {
                found.accept(paid + "which was refused every time it was sent", ops);
            }
        }
    }

    /**
     * Money answered "refund" (409 payment-rejected once the purchase can be paid no more: its
     * purchaseStatus final) has exactly one payment_refunds row, for its purchase; a refusal while
     * PENDING_PAYMENT records nothing. No row holds the payment an order was PAID with, and every row
     * is for money a PAY or PAY_DUPLICATE of its purchase sent, at its amount.
     */
    static void refundsRecordedOnce(Facts facts, BiConsumer<String, List<Op>> found) {
        Predicate<Op> refundAnswered = op -> isPayment(op)
                && op.status() == 409
                && op.problemType().equals("payment-rejected")
                && Stream.of(PurchaseStatus.values())
                        .anyMatch(s -> s.isFinal() && s.name().equals(op.purchaseStatus()));
        payments(facts, refundAnswered).forEach(payment -> {
            List<String> rows = facts.refunds().stream()
                    .filter(row -> row.paymentId().equals(payment.paymentId()))
                    .map(Facts.Refund::purchaseId)
                    .toList();
            if (!rows.equals(List.of(payment.purchaseId()))) {
                found.accept(
                        "payment " + payment.paymentId() + " of " + payment.purchaseId()
                                + " was answered refund-needed, but has " + rows.size() + " refund rows, for " + rows,
                        facts.opsOf(payment.purchaseId()));
            }
        });
        Map<String, List<Op>> byPurchase = facts.byPurchase();
        for (Facts.Refund row : facts.refunds()) {
            List<Op> ops = byPurchase.getOrDefault(row.purchaseId(), List.of());
            facts.orders().stream()
                    .filter(order -> paidWith(order, row.paymentId()))
                    .forEach(order -> found.accept(
                            "payment " + row.paymentId() + " paid the order of " + order.purchaseId()
                                    + ", yet has a refund row",
                            ops));
            if (ops.stream()
                    .noneMatch(op -> isPayment(op)
                            && op.key().equals(row.paymentId())
                            && op.amountMinor() == row.amountMinor())) {
                found.accept(
                        "a refund row for payment " + row.paymentId() + " of " + row.purchaseId() + " ("
                                + row.amountMinor() + ") that no payment of it sent",
                        ops);
            }
        }
    }

    private static boolean isPayment(Op op) {
        return op.kind() == Op.Kind.PAY || op.kind() == Op.Kind.PAY_DUPLICATE;
    }

    private static boolean paidWith(Facts.Order order, String paymentId) {
        return order.status() == PurchaseStatus.PAID && paymentId.equals(order.paymentId());
    }

    /** The payments sent by the operations {@code answered} so, each once, in the order of the history. */
    private static Stream<Payment> payments(Facts facts, Predicate<Op> answered) {
        return facts.history().stream()
                .filter(answered)
                .map(op -> new Payment(op.purchaseId(), op.key()))
                .distinct();
    }

    private record Payment(String purchaseId, String paymentId) {}
}
