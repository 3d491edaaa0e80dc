package io.flashsale.worker.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.admission.AdmissionEntry;
import io.flashsale.stores.admission.AdmissionStream;
import io.flashsale.stores.sale.SaleArchive;
import io.flashsale.stores.sale.SaleArchive.Outcome;
import io.flashsale.worker.WorkerProperties;
import io.flashsale.worker.purchase.WorkflowIntegrationTest;
import io.flashsale.workflows.purchase.PaymentRequest;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Real purchases on a time-skipping Temporal leave the sale in the shape the archive expects: it
 * waits while one awaits payment and archives the sale once that one expired.
 */
class SaleArchiverIT extends WorkflowIntegrationTest {

    @Autowired
    SaleArchive archive;

    @Autowired
    AdmissionStream stream;

    @Test
    void archivesAnEndedSaleOnlyOnceItsLastPurchaseEnded() {
        SaleArchiver archiver = archiver();
        PurchaseRequest alice = started("alice");
        PurchaseRequest bob = started("bob");
        awaitPayment(alice).pay(new PaymentRequest("pay-" + sale.id() + "-alice"));
        awaitPayment(bob);
        probe.endSale(sale.id());

        Map<Outcome, Integer> whileBobMayPay = archiver.archiveOnce();
        env.sleep(Duration.ofSeconds(bob.payTimeoutSeconds() + 1));
        PurchaseStatus bobEnded = result(bob).status();
        Map<Outcome, Integer> afterBob = archiver.archiveOnce();

        assertThat(whileBobMayPay).isEqualTo(Map.of(Outcome.PENDING_PAYMENT, 1));
        assertThat(bobEnded).isEqualTo(PurchaseStatus.EXPIRED);
        assertThat(afterBob).isEqualTo(Map.of(Outcome.ARCHIVED, 1));
        assertThat(sales.find(sale.id()).orElseThrow().redisArchived()).isTrue();
        assertThat(probe.saleKeys(sale.id()).stream().filter(redis::hasKey))
                .containsExactly(keys.sale(sale.id()).meta());
        assertThat(archiver.archiveOnce()).isEmpty();
    }

    /** Admitted through the real gate and started as the relay would, its stream entry done. */
    private PurchaseRequest started(String user) {
        PurchaseRequest request = fixture.admit(sale, user);
        new PurchaseStarter(env.getWorkflowClient()).start(request);
        for (AdmissionEntry entry : stream.readNew(sale.id(), "test", 10)) {
            stream.done(sale.id(), entry.entryId());
        }
        return request;
    }

    /** Archives sales that ended at all (no waiting period), one pass at a time. */
    private SaleArchiver archiver() {
        var settings =
                new WorkerProperties.Archive(true, Duration.ZERO, Duration.ofMinutes(1), 10_000, Duration.ofMinutes(5));
        return new SaleArchiver(sales, archive, settings, new SimpleMeterRegistry());
    }
}
