package io.flashsale.e2e;

import static io.flashsale.stores.audit.AuditVerdict.PASS;
import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.testkit.ApiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A sale through Temporal's frontend going away and coming back (the dev server killed, or a
 * cluster's frontend): purchases wait for payment when it goes, buyers keep coming while it is
 * gone, and timers, payments and the admissions made in between all come out exactly once once it
 * is back. The admissions made while it is gone wait in the sale's stream; then the api's start
 * queue or the relay starts them (whichever comes first: the queue retries for {@code
 * FLASHSALE_TEMPORAL_RETRY}, the relay takes what is older than its handoff).
 */
final class TemporalRestart {

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

    /** What goes away and comes back. */
    interface Outage {
        /** Kills it, and asserts that it is gone. */
        void kill() throws Exception;

        /** Starts it again and waits until it answers. */
        void restart() throws Exception;
    }

    private TemporalRestart() {}

    static void sellThrough(ApiClient api, FlashSaleSystem system, Outage outage) throws Exception {
        String saleId = TestSales.newId();
        assertThat(api.createSale(TestTokens.admin(), saleId, UNITS, PAY_TIMEOUT)
                        .status())
                .isEqualTo(201);
        Purchases purchases = new Purchases(api, saleId);
        List<String> early = admitted(purchases.race(Purchases.users("early", EARLY)));
        assertThat(early).hasSize(EARLY);
        purchases.payAsOrdered(early.subList(0, 2), PATIENCE, PAID_WITHIN);
        purchases.awaitStatus(early.subList(2, EARLY), "PENDING_PAYMENT", PATIENCE);

        outage.kill();

        // Temporal down: Redis alone admits and refuses; the admissions wait in the sale's stream
        List<ApiClient.Response> during = purchases.race(Purchases.users("outage", DURING_OUTAGE));
        List<String> late = admitted(during);
        assertThat(late).hasSize(UNITS - EARLY);
        assertThat(during.stream().filter(r -> r.status() == 409).map(ApiClient.Response::problemType))
                .hasSize(DURING_OUTAGE - (UNITS - EARLY))
                .containsOnly("sold-out");
        assertThat(during.stream()
                        .filter(r -> r.status() == 202)
                        .map(r -> r.body().path("status").asText()))
                .containsOnly("RESERVED");
        try (SystemStores stores = new SystemStores(system.environment())) {
            assertThat(stores.probe().admissions(saleId))
                    .as("the outage's admissions wait in the sale's stream: no start can succeed")
                    .isEqualTo(late.size());
        }

        outage.restart();
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

    static List<String> admitted(List<ApiClient.Response> responses) {
        return responses.stream()
                .filter(r -> r.status() == 202)
                .map(r -> r.body().path("purchaseId").asText())
                .toList();
    }
}
