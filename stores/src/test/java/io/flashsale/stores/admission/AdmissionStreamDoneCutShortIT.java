package io.flashsale.stores.admission;

import static io.flashsale.stores.testing.TestAdmissions.admit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.testing.StoresIntegrationTest;
import io.flashsale.stores.testing.TestSales;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * ack_delete.lua cut short (its XDEL refused): the entry stays pending for the relay's next pass.
 * On one Redis server only: {@link RefusingRedis} refuses a command through an ACL user of that
 * server; the script's atomicity is the same on a cluster ({@link AdmissionStreamOnClusterIT} runs
 * the rest of {@link AdmissionStreamIT} there).
 */
class AdmissionStreamDoneCutShortIT extends StoresIntegrationTest {

    @Autowired
    AdmissionStream stream;

    @Autowired
    RedisScript<List> claimScript;

    @Autowired
    RedisScript<Long> ackDeleteScript;

    @Autowired
    RedisScript<List> backlogScript;

    @Test
    void aDoneCutShortLeavesTheEntryPendingForTheNextPass() {
        Sale sale = loaded(TestSales.open(5));
        Admission admission = admit(gate, sale.id(), "u1", "k");
        stream.readNew(sale.id(), "relay-a", 10);

        try (RefusingRedis refusing = RefusingRedis.without(redis, "xdel")) {
            assertThatThrownBy(() -> new AdmissionStream(
                                    refusing.template(), keys, claimScript, ackDeleteScript, backlogScript)
                            .done(sale.id(), admission.entryId()))
                    .isInstanceOf(RedisSystemException.class);
        }

        assertThat(stream.readOwnPending(sale.id(), "relay-a", 10))
                .extracting(AdmissionEntry::entryId)
                .containsExactly(admission.entryId());
        stream.done(sale.id(), admission.entryId());
        assertThat(redis.opsForStream().size(keys.sale(sale.id()).admissions())).isZero();
        assertThat(pending(sale)).isZero();
    }

    private long pending(Sale sale) {
        return redis.opsForStream()
                .pending(keys.sale(sale.id()).admissions(), "relay")
                .getTotalPendingMessages();
    }
}
