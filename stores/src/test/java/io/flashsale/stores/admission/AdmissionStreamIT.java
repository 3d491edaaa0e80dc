package io.flashsale.stores.admission;

import static io.flashsale.stores.testing.TestAdmissions.admit;
import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.testing.StoresIntegrationTest;
import io.flashsale.stores.testing.TestSales;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class AdmissionStreamIT extends StoresIntegrationTest {

    @Autowired
    AdmissionStream stream;

    @Test
    void listsEveryLoadedSale() {
        Sale one = loaded(TestSales.open(1));
        Sale two = loaded(TestSales.open(1));

        assertThat(stream.saleIds()).contains(one.id(), two.id());
    }

    @Test
    void deliversEachAdmissionToOneConsumerOnce() {
        Sale sale = loaded(TestSales.open(5));
        Admission first = admit(gate, sale.id(), "u1", "k");
        Admission second = admit(gate, sale.id(), "u2", "k");

        var read = stream.readNew(sale.id(), "relay-a", 10);

        assertThat(read)
                .containsExactly(
                        new AdmissionEntry(first.entryId(), sale.id(), first.purchaseId(), "u1", 60),
                        new AdmissionEntry(second.entryId(), sale.id(), second.purchaseId(), "u2", 60));
        assertThat(stream.readNew(sale.id(), "relay-b", 10)).isEmpty();
    }

    @Test
    void createsTheConsumerGroupWhenRedisLostIt() {
        Sale sale = loaded(TestSales.open(5));
        redis.delete(keys.sale(sale.id()).admissions());
        Admission admission = admit(gate, sale.id(), "u1", "k");

        assertThat(stream.readNew(sale.id(), "relay-a", 10))
                .extracting(AdmissionEntry::entryId)
                .containsExactly(admission.entryId());
    }

    @Test
    void handsIdleEntriesOfADeadConsumerToAnother() throws InterruptedException {
        Sale sale = loaded(TestSales.open(5));
        Admission admission = admit(gate, sale.id(), "u1", "k");
        stream.readNew(sale.id(), "dead", 10);

        assertThat(stream.claimIdle(sale.id(), "alive", Duration.ofMinutes(1), 10))
                .isEmpty();
        Thread.sleep(60); // elapsed time: the entry must be pending longer than the 50 ms minimum idle
        assertThat(stream.claimIdle(sale.id(), "alive", Duration.ofMillis(50), 10))
                .extracting(AdmissionEntry::purchaseId)
                .containsExactly(admission.purchaseId());
    }

    @Test
    void forgetsDoneEntries() throws InterruptedException {
        Sale sale = loaded(TestSales.open(5));
        Admission done = admit(gate, sale.id(), "u1", "k");
        Admission forgotten = admit(gate, sale.id(), "u2", "k");
        stream.readNew(sale.id(), "relay-a", 10);

        stream.done(sale.id(), done.entryId());
        gate.forget(sale.id(), forgotten.entryId());
        Thread.sleep(20); // elapsed time: a left-over pending entry would now be idle past the 1 ms

        assertThat(redis.opsForStream().size(keys.sale(sale.id()).admissions())).isZero();
        assertThat(stream.claimIdle(sale.id(), "alive", Duration.ofMillis(1), 10))
                .isEmpty();
    }

    @Test
    void readsNothingFromAStreamRedisLostOnEveryReadPath() {
        Sale sale = loaded(TestSales.open(5));
        admit(gate, sale.id(), "u1", "k");
        stream.readNew(sale.id(), "dead", 10);
        loseSale(sale.id());

        assertThat(stream.readOwnPending(sale.id(), "dead", 10)).isEmpty();
        assertThat(stream.claimIdle(sale.id(), "alive", Duration.ZERO, 10)).isEmpty();
        assertThat(stream.readNew(sale.id(), "alive", 10)).isEmpty();
        assertThat(redis.hasKey(keys.sale(sale.id()).admissions())).isFalse();
    }

    @Test
    void reportsTheEntriesLeftAndWhenTheOldestWasAdmitted() {
        Sale sale = loaded(TestSales.open(5));
        assertThat(stream.backlog(sale.id())).isEqualTo(new StreamBacklog(0, Optional.empty()));
        Admission first = admit(gate, sale.id(), "u1", "k");
        admit(gate, sale.id(), "u2", "k");

        StreamBacklog backlog = stream.backlog(sale.id());

        assertThat(backlog.entries()).isEqualTo(2);
        assertThat(backlog.oldest()).contains(StreamBacklog.admittedAt(first.entryId()));
    }

    @Test
    void skipsEntriesTheApiAlreadyHandled() {
        Sale sale = loaded(TestSales.open(5));
        Admission handled = admit(gate, sale.id(), "u1", "k");
        Admission pending = admit(gate, sale.id(), "u2", "k");

        gate.forget(sale.id(), handled.entryId());

        assertThat(stream.readNew(sale.id(), "relay-a", 10))
                .extracting(AdmissionEntry::entryId)
                .containsExactly(pending.entryId());
    }

    @Test
    void redeliversOwnPendingEntriesAndDropsOnesTheApiDeleted() {
        Sale sale = loaded(TestSales.open(5));
        Admission deleted = admit(gate, sale.id(), "u1", "k");
        Admission unfinished = admit(gate, sale.id(), "u2", "k");
        assertThat(stream.readNew(sale.id(), "relay-a", 10)).hasSize(2);

        gate.forget(sale.id(), deleted.entryId());

        assertThat(stream.readOwnPending(sale.id(), "relay-a", 10))
                .extracting(AdmissionEntry::entryId)
                .containsExactly(unfinished.entryId());
        assertThat(stream.readOwnPending(sale.id(), "relay-b", 10)).isEmpty();
        stream.done(sale.id(), unfinished.entryId());
        assertThat(stream.readOwnPending(sale.id(), "relay-a", 10)).isEmpty();
        assertThat(pending(sale)).isZero();
    }

    private long pending(Sale sale) {
        return redis.opsForStream()
                .pending(keys.sale(sale.id()).admissions(), "relay")
                .getTotalPendingMessages();
    }
}
