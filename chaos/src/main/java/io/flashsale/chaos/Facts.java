package io.flashsale.chaos;

import io.flashsale.launcher.PrivateStores;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * What the stores hold once a chaos run is over, for the checker: read from MySQL, so the api's bugs
 * cannot hide them, but for each purchase the history names and each sale's audit, which the api tells.
 */
public record Facts(
        List<Sale> sales, List<Order> orders, List<Refund> refunds, List<Purchase> purchases, List<Change> changes) {

    /** A sale of the run, the units it was created with, and the api's audit of it at the end. */
    public record Sale(String saleId, int created, AuditReport audit) {}

    /**
     * A row of MySQL's {@code sale_changes}: {@code kind} CLOSE, MOVE, RESTOCK or WITHDRAW, the key
     * (null for a move), the units asked and how much the total changed.
     */
    public record Change(String saleId, String kind, String key, Integer unitsAsked, int units) {}

    /** A row of MySQL's {@code orders}. {@code paymentId} null unless PAID. */
    public record Order(String saleId, String userId, String purchaseId, PurchaseStatus status, String paymentId) {}

    /** A row of MySQL's {@code payment_refunds}: the money of a payment to give back. */
    public record Refund(String paymentId, String purchaseId, long amountMinor) {}

    /**
     * A purchase as the api tells it at the end (GET /api/purchases/{id}): {@code status} null when
     * the api answers 404 (no such purchase); {@code paymentId} null unless PAID.
     */
    public record Purchase(String purchaseId, PurchaseStatus status, String paymentId) {}

    static Facts read(
            PrivateStores stores, ApiClient api, Tokens tokens, Map<String, Integer> created, List<Op> history) {
        List<String> sales = List.copyOf(created.keySet());
        List<Sale> saleFacts = sales.stream()
                .map(sale -> new Sale(sale, created.get(sale), audit(api, tokens, sale)))
                .toList();
        JdbcClient db =
                JdbcClient.create(new DriverManagerDataSource(stores.jdbcUrl(), stores.user(), stores.password()));
        List<Order> orders = select(
                db,
                sales,
                Order.class,
                "SELECT sale_id, user_id, purchase_id, status, payment_id FROM orders WHERE sale_id = ?");
        List<Change> changes = select(
                db,
                sales,
                Change.class,
                "SELECT sale_id, kind, change_key AS `key`, units_asked, units FROM sale_changes WHERE sale_id = ?"
                        + " ORDER BY id");
        List<Refund> refunds = select(
                db,
                sales,
                Refund.class,
                "SELECT payment_id, purchase_id, amount_minor FROM payment_refunds WHERE sale_id = ?");
        return new Facts(saleFacts, orders, refunds, purchases(api, tokens, history), changes);
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
        Map<String, String> users = new LinkedHashMap<>();
        history.stream()
                .filter(op -> !op.kind().byOperator())
                .forEach(op -> users.putIfAbsent(op.purchaseId(), op.userId()));
        List<Purchase> purchases = new ArrayList<>();
        users.forEach((id, user) -> {
            ApiClient.Response view = api.status(tokens.buyer(user), id);
            PurchaseStatus status = view.status() == 200 ? PurchaseStatus.valueOf(view.field("status")) : null;
            purchases.add(new Purchase(id, status, view.field("paymentId")));
        });
        return purchases;
    }

    /** Every row {@code sql} finds for each of {@code sales} (its one parameter), sale by sale, as a {@code row}. */
    private static <T> List<T> select(JdbcClient db, List<String> sales, Class<T> row, String sql) {
        return sales.stream()
                .flatMap(sale -> db.sql(sql).param(sale).query(row).list().stream())
                .toList();
    }
}
