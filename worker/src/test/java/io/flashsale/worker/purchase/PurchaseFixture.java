package io.flashsale.worker.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.admission.Admission;
import io.flashsale.stores.admission.AdmissionGate;
import io.flashsale.stores.admission.AdmissionOutcome;
import io.flashsale.stores.admission.HoldState;
import io.flashsale.stores.admission.StreamBacklog;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.sale.SaleStock;
import io.flashsale.stores.testing.TestAdmissions;
import io.flashsale.workflows.purchase.PurchaseRequest;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Sets up sales and admissions on the real stores and reads back what MySQL and Redis hold. */
public record PurchaseFixture(SaleRepository sales, SaleStock stock, AdmissionGate gate, JdbcClient jdbc) {

    public Sale create(Sale sale) {
        sales.insertIfAbsent(sale);
        stock.load(sale);
        return sale;
    }

    /** Admits the user through the real Lua gate, as the api does, and returns the workflow input. */
    public PurchaseRequest admit(Sale sale, String userId) {
        Admission admission = TestAdmissions.admit(gate, sale.id(), userId, "key-" + userId);
        assertThat(admission.outcome()).isEqualTo(AdmissionOutcome.ADMITTED);
        return new PurchaseRequest(
                admission.purchaseId(),
                sale.id(),
                userId,
                admission.payTimeoutSeconds(),
                StreamBacklog.admittedAt(admission.entryId()).toEpochMilli());
    }

    public int available(Sale sale) {
        return sales.find(sale.id()).orElseThrow().available();
    }

    public long redisStock(Sale sale) {
        return stock.stock(sale.id()).orElseThrow();
    }

    public Optional<HoldState> hold(PurchaseRequest request) {
        return gate.holdState(request.saleId(), request.purchaseId());
    }

    public Optional<String> orderStatus(PurchaseRequest request) {
        return jdbc.sql("SELECT status FROM orders WHERE purchase_id = ?")
                .param(request.purchaseId())
                .query(String.class)
                .optional();
    }

    public int orders(Sale sale) {
        return jdbc.sql("SELECT COUNT(*) FROM orders WHERE sale_id = ?")
                .param(sale.id())
                .query(Integer.class)
                .single();
    }
}
