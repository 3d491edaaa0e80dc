package io.flashsale.stores.payment;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.order.OrderRepository;
import io.flashsale.stores.payment.PaymentRefunds.RefundNeeded;
import io.flashsale.stores.sale.Price;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.testing.StoresIntegrationTest;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.workflows.purchase.NewOrder;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class PaymentRefundsIT extends StoresIntegrationTest {

    @Autowired
    PaymentRefunds refunds;

    @Autowired
    SaleRepository sales;

    @Test
    void recordsAPaymentToGiveBackOnceWhateverTheRetries() {
        Sale sale = TestSales.closed(1);
        sales.insertIfAbsent(sale);
        RefundNeeded refund = new RefundNeeded(
                "pay-" + sale.id(),
                PurchaseRequest.purchaseId(sale.id(), "u1"),
                sale.id(),
                sale.price(),
                PurchaseStatus.EXPIRED);

        boolean first = refunds.record(refund);
        boolean retried = refunds.record(refund);

        assertThat(first).isTrue();
        assertThat(retried).isFalse();
        assertThat(refunds.ofSale(sale.id())).containsExactly(refund);
    }

    @Test
    void ordersRecordThePriceOfTheirSale() {
        Sale sale = TestSales.open(1);
        sales.insertIfAbsent(sale);
        String purchaseId = PurchaseRequest.purchaseId(sale.id(), "u1");

        new OrderRepository(jdbc).insertPending(new NewOrder(purchaseId, sale.id(), "u1", null, 60));

        Price recorded = jdbc.sql("SELECT price_minor, currency FROM orders WHERE purchase_id = ?")
                .param(purchaseId)
                .query((row, n) -> new Price(row.getLong(1), row.getString(2)))
                .single();
        assertThat(recorded).isEqualTo(TestSales.PRICE);
    }
}
