package io.flashsale.chaos;

import static java.util.stream.Collectors.groupingBy;
import static java.util.stream.Collectors.toList;
import static java.util.stream.Collectors.toMap;

import io.flashsale.launcher.PrivateStores;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * What a chaos run did and left, for the checker: its history in the order sent, MySQL's rows (read
 * directly, so the api's bugs cannot hide them), each sale's audit and purchase as the api tells it.
 */
public record Facts(
        List<Op> history,
        List<Sale> sales,
        List<Order> orders,
        List<Refund> refunds,
        List<Purchase> purchases,
        List<Change> changes) {

    /** A sale of the run, the units it was created with, and its audit at the end (null: none answered). */
    public record Sale(String saleId, int created, AuditReport audit) {}

    /** A row of {@code sale_changes}: CLOSE, MOVE, RESTOCK or WITHDRAW, its key, the units asked and added. */
    public record Change(String saleId, String kind, String changeKey, Integer unitsAsked, int units) {}

    /** A row of {@code orders}; {@code paymentId} null unless PAID. */
    public record Order(String saleId, String userId, String purchaseId, PurchaseStatus status, String paymentId) {}

    /** A row of {@code payment_refunds}: the money of a payment to give back. */
    public record Refund(String paymentId, String purchaseId, long amountMinor) {}

    /** GET /api/purchases/{id} at the end: {@code status} null on 404, {@code paymentId} null unless PAID. */
    public record Purchase(String purchaseId, PurchaseStatus status, String paymentId) {}

    static Facts read(
            PrivateStores stores, ApiClient api, Tokens tokens, Map<String, Integer> created, List<Op> history) {
        JdbcClient db =
                JdbcClient.create(new DriverManagerDataSource(stores.jdbcUrl(), stores.user(), stores.password()));
        Set<String> sales = created.keySet();
        return new Facts(
                history,
                sales.stream()
                        .map(sale -> new Sale(sale, created.get(sale), audit(api, tokens, sale)))
                        .toList(),
                select(db, sales, Order.class, "sale_id, user_id, purchase_id, status, payment_id FROM orders"),
                select(db, sales, Refund.class, "payment_id, purchase_id, amount_minor FROM payment_refunds"),
                purchases(api, tokens, history),
                select(db, sales, Change.class, "sale_id, kind, change_key, units_asked, units FROM sale_changes"));
    }

    /** The api's audit of one sale, or null when it could not answer (an api or a store down). */
    static AuditReport audit(ApiClient api, Tokens tokens, String sale) {
        try {
            ApiClient.Response audit = api.audit(tokens.admin(), sale);
            return audit.status() == 200 ? audit.as(AuditReport.class) : null;
        } catch (RuntimeException noAnswer) {
            return null;
        }
    }

    /** Each purchase a buyer's or the payment service's operation named, as the api tells it now. */
    private static List<Purchase> purchases(ApiClient api, Tokens tokens, List<Op> history) {
        return history.stream()
                .filter(op -> !op.kind().byOperator())
                .collect(toMap(Op::purchaseId, Op::userId, (first, again) -> first, LinkedHashMap::new))
                .entrySet()
                .stream()
                .map(user -> {
                    ApiClient.Response view = api.status(tokens.buyer(user.getValue()), user.getKey());
                    PurchaseStatus status = view.status() == 200 ? PurchaseStatus.valueOf(view.field("status")) : null;
                    return new Purchase(user.getKey(), status, view.field("paymentId"));
                })
                .toList();
    }

    /** The rows of {@code from} ({@code columns FROM table}) in the run's sales, as {@code row}s. */
    private static <T> List<T> select(JdbcClient db, Set<String> sales, Class<T> row, String from) {
        return db.sql("SELECT " + from + " WHERE sale_id IN (:sales)")
                .param("sales", sales)
                .query(row)
                .list();
    }

    /** Every buyer's buys, payments and cancels by purchase, the buyers in the order of their first. */
    Map<String, List<Op>> byPurchase() {
        return history.stream()
                .filter(op -> !op.kind().byOperator())
                .collect(groupingBy(Op::purchaseId, LinkedHashMap::new, toList()));
    }

    /** Each buyer's orders by the purchase id the api derives, whatever MySQL wrote them under. */
    Map<String, List<Order>> ordersByBuyer() {
        return orders.stream()
                .collect(groupingBy(
                        order -> PurchaseRequest.purchaseId(order.saleId(), order.userId()),
                        LinkedHashMap::new,
                        toList()));
    }

    /** Everything sent for a purchase, buys, payments and cancels, in the order sent. */
    List<Op> opsOf(String purchaseId) {
        return history.stream()
                .filter(op -> !op.kind().byOperator() && op.purchaseId().equals(purchaseId))
                .toList();
    }

    /** The order written under a purchase id, if any (a second one is a rule of its own). */
    Optional<Order> orderOf(String purchaseId) {
        return orders.stream()
                .filter(order -> order.purchaseId().equals(purchaseId))
                .findFirst();
    }

    /** The purchase as the api told it at the end; its status null when it answered 404. */
    Optional<Purchase> purchase(String purchaseId) {
        return purchases.stream()
                .filter(purchase -> purchase.purchaseId().equals(purchaseId))
                .findFirst();
    }

    static String buyer(String saleId, String userId) {
        return "sale " + saleId + " user " + userId;
    }

    /** A purchase's or an order's end, as the reports tell it. */
    static String ended(PurchaseStatus status, String paymentId) {
        return paymentId == null ? String.valueOf(status) : status + " with payment " + paymentId;
    }
}
