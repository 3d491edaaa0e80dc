package io.flashsale.e2e;

import static io.flashsale.stores.audit.AuditVerdict.PASS;
import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.bench.Api;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.testing.TestSales;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Fault matrix, the Temporal server itself dies: SIGKILL of the dev server (its state in a SQLite
 * file) while purchases wait for payment; buyers keep coming while it is down; the same server
 * starts again on the same file. Timers, payments and the admissions made during the outage all
 * come out exactly once. The admissions made while it is down wait in the sale's stream until it
 * is back; then the api's start queue or the relay starts them (whichever comes first: the queue
 * retries for {@code FLASHSALE_TEMPORAL_RETRY}, the relay takes what is older than its handoff).
 */
class TemporalServerCrashIT extends RunningSystemTest {

    private static final int UNITS = 8;
    private static final int EARLY = 5;
    /** Buyers while Temporal is down, for the remaining {@code UNITS - EARLY} units. */
    private static final int DURING_OUTAGE = 5;
    /** A payment sent the moment its order is written is answered within this, or fails. */
    private static final Duration PAID_WITHIN = Duration.ofSeconds(20);
    /**
     * From the order to the deadline: longer than a payment's wait (one status poll and {@link
     * #PAID_WITHIN}, see {@link Purchases#payAsOrdered}), so none races it; the payments after the
     * restart are of purchases ordered after it. The early unpaid purchases' timers run through the
     * kill and the restart.
     */
    private static final Duration PAY_TIMEOUT = Duration.ofSeconds(45);

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Test
    void purchasesSurviveTheTemporalServerKilledMidSaleAndFinishExactlyOnce() throws Exception {
        String saleId = TestSales.newId();
        assertThat(api.createSale(TestTokens.admin(), saleId, UNITS, PAY_TIMEOUT)
                        .status())
                .isEqualTo(201);
        Purchases purchases = new Purchases(api, saleId);
        List<String> early = admitted(purchases.race(Purchases.users("early", EARLY)));
        assertThat(early).hasSize(EARLY);
        purchases.payAsOrdered(early.subList(0, 2), PATIENCE, PAID_WITHIN);
        purchases.awaitStatus(early.subList(2, EARLY), "PENDING_PAYMENT", PATIENCE);

        long killedPid = system.temporal().process().pid();
        system.temporal().kill();
        assertThat(ProcessHandle.of(killedPid)).as("the server process is gone").isEmpty();

        // Temporal down: Redis alone admits and refuses; the admissions wait in the sale's stream
        List<Api.Response> outage = purchases.race(Purchases.users("outage", DURING_OUTAGE));
        List<String> late = admitted(outage);
        assertThat(late).hasSize(UNITS - EARLY);
        assertThat(outage.stream().filter(r -> r.status() == 409).map(Api.Response::problemType))
                .hasSize(DURING_OUTAGE - (UNITS - EARLY))
                .containsOnly("sold-out");
        assertThat(outage.stream()
                        .filter(r -> r.status() == 202)
                        .map(r -> r.body().path("status").asText()))
                .containsOnly("RESERVED");
        try (SystemStores stores = new SystemStores(system.environment())) {
            assertThat(stores.probe().admissions(saleId))
                    .as("the outage's admissions wait in the sale's stream: no start can succeed")
                    .isEqualTo(late.size());
        }

        system.temporal().restart();
        purchases.payAsOrdered(late.subList(0, 2), PATIENCE, PAID_WITHIN);

        List<String> unpaid = new ArrayList<>(early.subList(2, EARLY));
        unpaid.addAll(late.subList(2, late.size()));
        purchases.awaitStatus(unpaid, "EXPIRED", PATIENCE.multipliedBy(2));
        List<String> all = new ArrayList<>(early);
        all.addAll(late);
        assertThat(purchases.statuses(all)).isEqualTo(Map.of("PAID", 4L, "EXPIRED", 4L));
        Audits.assertAudit(
                api, new AuditReport(saleId, UNITS, 4, 0, 4, 4, 0, 4L, 4, 4, UNITS, 0, 0, List.of(), PASS, null));
    }

    private static List<String> admitted(List<Api.Response> responses) {
        return responses.stream()
                .filter(r -> r.status() == 202)
                .map(r -> r.body().path("purchaseId").asText())
                .toList();
    }
}
