package io.flashsale.bench;

import io.flashsale.launcher.Await;
import io.flashsale.launcher.Processes;
import io.flashsale.stores.admission.RateLimits;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The few admin calls a run makes outside the measured load, through {@link ApiClient} with an admin token. */
public record Admin(ApiClient api, Tokens tokens) {

    /** The pay timeout of the bench's sales: longer than a run, so no measured order expires during it. */
    static final Duration NOTHING_EXPIRES = Duration.ofMinutes(30);

    /** How long a phase waits for its winners' orders (or its workflows) to settle. */
    static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(5);

    private static final Duration GC_TIMEOUT = Duration.ofSeconds(60);

    /**
     * How often a settling sale's view is read: each read costs the api and MySQL, within the CPU
     * measured per winner; the time to the last order comes from MySQL's timestamps ({@link OrderLag}).
     */
    static final Duration SETTLE_POLL = Duration.ofMillis(250);

    public InetSocketAddress address() {
        return api.address();
    }

    /** Creates a sale that opens now; fails unless the api answers 201 or 200. */
    public void createSale(String saleId, int units, Duration payTimeout) {
        api.createSale(tokens.admin(), saleId, units, payTimeout).expect("creating sale " + saleId, 201, 200);
    }

    /** The same with the sale's own purchase rate limits. */
    public void createSale(String saleId, int units, Duration payTimeout, RateLimits rateLimits) {
        api.createSale(tokens.admin(), saleId, units, payTimeout, rateLimits)
                .expect("creating sale " + saleId, 201, 200);
    }

    /** The sale's units and orders by status, as the api's sale view shows them. */
    public SaleView sale(String saleId) {
        return api.sale(tokens.admin(), saleId)
                .expect("reading sale " + saleId, 200)
                .as(SaleView.class);
    }

    /** Seconds from {@code sinceNanos} (System.nanoTime) until {@code expected} orders of the sale are PENDING_PAYMENT. */
    double awaitPending(String saleId, long expected, long sinceNanos) throws Exception {
        Await.until(
                "%d orders of sale %s PENDING_PAYMENT".formatted(expected, saleId),
                SETTLE_TIMEOUT,
                SETTLE_POLL,
                () -> sale(saleId),
                seen -> seen.pendingPayment() >= expected);
        return (System.nanoTime() - sinceNanos) / 1e9;
    }

    /** The product's invariant audit of the sale ({@code GET /api/sales/{id}/audit}). */
    public AuditSummary audit(String saleId) {
        return new AuditSummary(api.audit(tokens.admin(), saleId)
                .expect("auditing sale " + saleId, 200)
                .as(AuditReport.class));
    }

    /**
     * Bytes the api (process {@code apiPid}) has allocated so far, as Micrometer counts them at each
     * collection ({@code jvm.gc.memory.allocated}); a collection is asked for first ({@code jcmd PID
     * GC.run}), or a load that fills less than the young generation would count nothing.
     */
    public double allocatedBytes(long apiPid) throws IOException, InterruptedException {
        Path jcmd = Path.of(Processes.java()).resolveSibling("jcmd");
        Path log = Files.createTempFile("jcmd", ".log");
        try {
            if (Processes.exec(List.of(jcmd.toString(), Long.toString(apiPid), "GC.run"), Map.of(), log, GC_TIMEOUT)
                    != 0) {
                throw new IllegalStateException("jcmd GC.run on the api failed: " + Files.readString(log));
            }
        } finally {
            Files.delete(log);
        }
        String metrics = api.get("/actuator/prometheus", tokens.admin())
                .expect("reading the api's metrics", 200)
                .text();
        return metrics.lines()
                .filter(line -> line.startsWith("jvm_gc_memory_allocated_bytes_total"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
