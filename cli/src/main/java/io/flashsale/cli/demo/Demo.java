package io.flashsale.cli.demo;

import io.flashsale.bench.AuditSummary;
import io.flashsale.bench.HttpLoad;
import io.flashsale.bench.Requests;
import io.flashsale.bench.Requests.Burst;
import io.flashsale.bench.Tally;
import io.flashsale.launcher.Await;
import io.flashsale.stores.admission.RateLimits;
import io.flashsale.stores.admission.RateLimits.Bucket;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/**
 * One flash sale from the first click to the last expiry: a wave of buyers at once, a share of the
 * winners pays, the other orders expire and give their units back, then late buyers buy those again.
 *
 * @param webUi the Temporal Web UI of the system, when it has one to show
 */
record Demo(ApiClient api, Tokens tokens, Options options, Optional<WebUi> webUi) {

    /** The sale and its buyers: the options of {@code bin/flashsale demo}. */
    static final class Options {

        @Option(
                names = "--buyers",
                paramLabel = "N",
                defaultValue = "10000",
                description = "the first wave, all at once")
        int buyers;

        @Option(
                names = "--late-buyers",
                paramLabel = "N",
                description = "the second wave, once the first wave's orders ended (default: a tenth of --buyers)")
        Integer lateBuyers;

        @Option(names = "--units", paramLabel = "N", defaultValue = "500", description = "units on sale")
        int units;

        @Option(
                names = "--pay-share",
                paramLabel = "F",
                defaultValue = "0.5",
                description = "the share of the winners that pays")
        double payShare;

        @Option(
                names = "--pay-timeout",
                paramLabel = "S",
                defaultValue = "20",
                description = "seconds a winner has to pay")
        int payTimeout;

        @Option(
                names = "--settle-margin",
                paramLabel = "S",
                defaultValue = "60",
                description = "seconds past the pay timeout a wait for the orders to end may last")
        int settleMargin;

        @Option(
                names = "--connections",
                paramLabel = "N",
                defaultValue = "200",
                description = "the buyers' connections")
        int connections;

        int lateBuyers() {
            return lateBuyers == null ? buyers / 10 : lateBuyers;
        }

        /** How long a wait for payments and orders to end may last: the pay timeout plus the margin. */
        Duration settleTimeout() {
            return Duration.ofSeconds(payTimeout + settleMargin);
        }
    }

    private static final int MAX_BUCKET = 1_000_000;

    private record Sold(List<Tally> answers, long orders, Map<String, Long> payments) {}

    DemoResult run() throws Exception {
        String sale = "demo" + Long.toString(System.currentTimeMillis(), 36);
        List<Burst> waves = waves(sale);
        createSale(sale, waves);
        Sold sold = sell(sale, waves);
        AuditSummary audit = AuditSummary.read(api, tokens, sale);
        Optional<URI> link = webUi.filter(WebUi::answers).map(ui -> ui.purchasesOf(sale));
        DemoResult result = new DemoResult(
                sale, Tally.of(sold.answers()).counts(), sold.orders(), sold.payments(), audit.report(), link);
        print(result, audit, sold.answers());
        return result;
    }

    /** Each wave, then until its orders ended, so the next wave buys the units unpaid orders gave back. */
    private Sold sell(String sale, List<Burst> waves) throws Exception {
        List<Tally> answers = new ArrayList<>();
        long orders = 0;
        try (Payer payer = new Payer(api, tokens, sale, options.payShare, options.settleTimeout())) {
            long firstClick = System.nanoTime();
            String who = options.buyers + " buyers at once";
            for (Burst wave : waves) {
                Tally answered = fire(wave, answers.size() + 1, who, payer);
                answers.add(answered);
                orders += answered.admittedUsers().size();
                SaleView settled = settle(sale, orders, payer);
                say("  settled %.1f s after the first click: %s", (System.nanoTime() - firstClick) / 1e9, settled);
                who = "%d late buyers for the %d units back on sale"
                        .formatted(options.lateBuyers(), settled.available());
            }
            Payer.Progress payments = payer.progress();
            if (payments.firstError() != null) {
                say("some payments failed (neither paid nor refused); the first: %s", payments.firstError());
            }
            return new Sold(answers, orders, payments.outcomes());
        }
    }

    private List<Burst> waves(String sale) {
        long seed = System.nanoTime();
        List<Burst> waves = new ArrayList<>();
        Requests requests = new Requests(api.address());
        waves.add(requests.burst(tokens, sale, "u", options.buyers, seed));
        if (options.lateBuyers() > 0) {
            waves.add(requests.burst(tokens, sale, "late", options.lateBuyers(), seed + 1));
        }
        return waves;
    }

    /**
     * The sale, with a per-address bucket that holds every request of the demo: they all come from
     * this one address, where the api's default (300) would turn most of them away. The per-user
     * bucket stays the api's.
     */
    private void createSale(String sale, List<Burst> waves) {
        int requests = waves.stream().mapToInt(wave -> wave.requests().size()).sum();
        int room = Math.min(MAX_BUCKET, requests);
        Duration payTimeout = Duration.ofSeconds(options.payTimeout);
        api.createSale(tokens.admin(), sale, options.units, payTimeout, new RateLimits(null, new Bucket(room, room)))
                .expect("creating sale " + sale, 201, 200);
        say(
                "sale %s: %d units, pay timeout %s, %.0f%% of the winners pay",
                sale, options.units, Await.text(payTimeout), options.payShare * 100);
        say(
                "its rate limit per client address: %d requests (refill %d/s), room for every request of this demo,"
                        + " which all come from this one address; the per-user limit stays the api's",
                room, room);
    }

    /** Fires one wave; each winner is handed to the payer the moment its 202 arrives. */
    private Tally fire(Burst wave, int number, String who, Payer payer) throws Exception {
        int size = wave.requests().size();
        int connections = Math.min(options.connections, size);
        say(
                "wave %d: %s, %d requests (some retry with the same key, some click twice) over %d connections",
                number, who, size, connections);
        Tally answered = new Tally(wave.users()::get);
        HttpLoad.Sink sink = (id, status, body, nanos) -> {
            answered.answered(id, status, body, nanos);
            if (status == 202) {
                payer.admitted(wave.users().get(id));
            }
        };
        try (AutoCloseable ticking =
                ticking(() -> "  answered %d/%d; %s".formatted(answered.answered(), size, payer.progress()))) {
            new HttpLoad(api.address()).each(connections, wave.requests(), sink);
        }
        say("  answered in %.2f s: %s", answered.seconds(), answered.counts());
        return answered;
    }

    /**
     * Waits until every payment is known and the sale is at rest after {@code orders} purchases: each
     * has its order, none awaits payment, and Redis has every unit MySQL has (those of expired and
     * cancelled orders back on sale).
     */
    private SaleView settle(String sale, long orders, Payer payer) throws Exception {
        Duration limit = options.settleTimeout();
        say("waiting (at most %s) until the %d orders are PAID, EXPIRED or CANCELLED", Await.text(limit), orders);
        AtomicReference<SaleView> seen = new AtomicReference<>();
        String what = "the payments sent and the %d orders of sale %s to end"
                + " (none PENDING_PAYMENT, their units back in Redis)";
        try (AutoCloseable ticking = ticking(() -> seen.get() == null
                ? "  waiting for the first reading"
                : "  " + payer.progress() + "; sale: " + seen.get())) {
            Await.until(
                    what.formatted(orders, sale),
                    limit,
                    Duration.ofMillis(200),
                    () -> {
                        seen.set(api.get("/api/sales/" + sale, tokens.admin())
                                .expect("reading sale " + sale, 200)
                                .as(SaleView.class));
                        return seen.get();
                    },
                    view -> payer.progress().done() && view.atRest(orders));
        }
        return seen.get();
    }

    /** A sale as {@code GET /api/sales/{id}} shows it; {@code redisStock} null when Redis has no stock for it. */
    record SaleView(
            int total, int available, Long redisStock, int pendingPayment, int paid, int expired, int cancelled) {

        int orders() {
            return pendingPayment + paid + expired + cancelled;
        }

        boolean atRest(long admitted) {
            return pendingPayment == 0 && orders() >= admitted && Objects.equals(redisStock, (long) available);
        }

        @Override
        public String toString() {
            return "%d orders (PENDING_PAYMENT %d, PAID %d, EXPIRED %d, CANCELLED %d), %d of %d units available (Redis %s)"
                    .formatted(orders(), pendingPayment, paid, expired, cancelled, available, total, redisStock);
        }
    }

    /** Prints {@code line} every second until closed. */
    private static AutoCloseable ticking(Supplier<String> line) {
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        ticker.scheduleAtFixedRate(() -> System.out.println(line.get()), 1, 1, TimeUnit.SECONDS);
        return ticker::shutdownNow;
    }

    private void print(DemoResult result, AuditSummary audit, List<Tally> answers) {
        Tally first = answers.get(0);
        System.out.println();
        result.lines().forEach(System.out::println);
        say(
                "%-10s oversold %d, duplicate orders %d, users admitted twice %d, I1 (available + PENDING_PAYMENT"
                        + " + PAID = total) %s, Redis stock %s = MySQL available %d",
                "",
                audit.oversold(),
                audit.duplicateOrders(),
                answers.stream().mapToLong(Tally::usersAdmittedTwice).sum(),
                audit.mysqlBalanced() ? "ok" : "VIOLATED",
                audit.report().redisStock(),
                audit.report().mysqlAvailable());
        say(
                "%-10s wave 1 winners p50 %.1f ms, p99 %.1f ms; losers p50 %.1f ms, p99 %.1f ms",
                "latency",
                first.millis(50, "admitted"),
                first.millis(99, "admitted"),
                first.millis(50, Tally.LOSERS),
                first.millis(99, Tally.LOSERS));
        webUi.filter(ui -> result.purchasesInWebUi().isEmpty())
                .ifPresent(ui -> say("%-10s not answering at %s (--temporal-ui URL)", "Web UI", ui.base()));
    }

    private static void say(String format, Object... args) {
        System.out.println(String.format(Locale.ROOT, format, args));
    }
}
