package io.flashsale.activities.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.flashsale.activities.testing.ActivitiesIntegrationTest;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleCounts;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.workflows.purchase.NewOrder;
import io.flashsale.workflows.purchase.OrderActivities;
import io.flashsale.workflows.purchase.PurchaseFailure;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.time.Instant;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The second guard behind the binary collation of the id columns (V3): on a database whose id
 * columns compare case-insensitively after all (this class's own schema, changed back by hand), a
 * lookup of {@code Alice}'s order never hands out {@code alice}'s, nor a lookup of sale {@code S1}
 * sale {@code s1}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CaseInsensitiveIdColumnsIT extends ActivitiesIntegrationTest {

    @Autowired
    OrderActivities orderActivities;

    @Autowired
    SaleRepository sales;

    @Autowired
    JdbcClient jdbc;

    Sale sale;

    @BeforeAll
    void caseInsensitiveIdColumns() {
        jdbc.sql("ALTER TABLE orders DROP FOREIGN KEY orders_sale").update();
        // the sale-change trail refers to the sale too; this test writes no change
        jdbc.sql("ALTER TABLE sale_changes DROP FOREIGN KEY sale_changes_sale").update();
        jdbc.sql("ALTER TABLE sales MODIFY id VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL")
                .update();
        jdbc.sql(
                        """
                        ALTER TABLE orders
                            MODIFY sale_id     VARCHAR(40)  CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
                            MODIFY purchase_id VARCHAR(160) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
                            MODIFY user_id     VARCHAR(64)  CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL
                        """)
                .update();
    }

    @BeforeEach
    void openSale() {
        sale = TestSales.open(5);
        sales.insertIfAbsent(sale);
    }

    @Test
    void neverAdoptsTheOrderOfAUserWhoseIdDiffersOnlyInCase() {
        long alices = orderActivities.createOrder(order("alice"));

        Throwable refused = catchThrowable(() -> orderActivities.createOrder(order("Alice")));

        assertThat(PurchaseFailure.ALREADY_ORDERED.matches(refused))
                .as("%s", refused)
                .isTrue();
        assertThat(orderActivities.createOrder(order("alice"))).isEqualTo(alices);
        assertThat(sales.find(sale.id()).orElseThrow().available()).isEqualTo(4);
    }

    @Test
    void neverPaysOrCancelsTheOrderOfAUserWhoseIdDiffersOnlyInCase() {
        orderActivities.createOrder(order("alice"));

        Throwable payment = catchThrowable(() -> orderActivities.markPaid(purchaseId("Alice"), "pay-Alice"));
        boolean cancelled = orderActivities.cancelOrder(purchaseId("Alice"), PurchaseStatus.CANCELLED);

        assertThat(PurchaseFailure.PAYMENT_REJECTED.matches(payment))
                .as("%s", payment)
                .isTrue();
        assertThat(cancelled).isFalse();
        assertThat(sales.counts(sale.id())).isEqualTo(new SaleCounts(1, 0, 0, 0));
        assertThat(sales.find(sale.id()).orElseThrow().available()).isEqualTo(4);
    }

    @Test
    void neverFindsASaleWhoseIdDiffersOnlyInCase() {
        String otherCase = sale.id().toUpperCase(Locale.ROOT);

        assertThat(sales.find(otherCase)).isEmpty();
        assertThat(sales.find(sale.id())).isPresent();
    }

    private NewOrder order(String userId) {
        return new NewOrder(purchaseId(userId), sale.id(), userId, Instant.now().plusSeconds(60));
    }

    private String purchaseId(String userId) {
        return PurchaseRequest.purchaseId(sale.id(), userId);
    }
}
