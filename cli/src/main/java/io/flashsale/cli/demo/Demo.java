package io.flashsale.cli.demo;

import io.flashsale.bench.HttpLoad;
import io.flashsale.bench.Requests;
import io.flashsale.bench.Requests.Burst;
import io.flashsale.bench.Tally;
import io.flashsale.launcher.Await;
import io.flashsale.stores.admission.RateLimits;
import io.flashsale.stores.admission.RateLimits.Bucket;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * One flash sale from the first click to the last expiry: a wave of buyers at once, a share of the
 * winners pays, the other orders expire and give their units back, then late buyers buy those again.
 *
 * @param webUi the Temporal Web UI of the system, when it has one to show
 */
record Demo(ApiClient api, Tokens tokens, DemoCommand options, Optional<WebUi> webUi) {

    /** The buyers' connections: about what one load generator on this machine keeps busy. */
    private static final int CONNECTIONS = 200;

    /** A sale as {@code GET /api/sales/{id}} shows it; {@code redisStock} null when Redis has no stock for it. */
    record SaleView(
            int total, int available, Long redisStock, int pendingPayment, int paid, int expired, int cancelled) {

        /** After {@code orders} admissions: each has its order, none awaits payment, Redis has MySQL's units. */
        boolean atRest(long orders) {
            return pendingPayment + paid + expired + cancelled >= orders
                    && pendingPayment == 0
                    && Objects.equals(redisStock, (long) available);
        }

        @Override
        public String toString() {
            return "PAID %d, EXPIRED %d, CANCELLED %d, PENDING_PAYMENT %d; %d of %d units available (Redis %s)"
                    .formatted(paid, expired, cancelled, pendingPayment, available, total, redisStock);
        }
    }

    /** Each wave, then until its orders ended, so the next wave buys the units unpaid orders gave back. */
    DemoResult run() throws Exception {
        String sale = "demo" + Long.toString(System.currentTimeMillis(), 36);
        int late = options.lateBuyers == null ? options.buyers / 10 : options.lateBuyers;
        Requests requests = new Requests(api.address());
        List<Burst> waves = new ArrayList<>(List.of(requests.burst(tokens, sale, "u", options.buyers, 1)));
        if (late > 0) {
            waves.add(requests.burst(tokens, sale, "late", late, 2));
        }
        createSale(sale, waves.stream().mapToInt(wave -> wave.requests().size()).sum());
        List<Tally> answers = new ArrayList<>();
        long orders = 0;
        try (Payer payer = new Payer(this, sale)) {
            long firstClick = System.nanoTime();
            String who = options.buyers + " buyers at once";
            for (Burst wave : waves) {
                answers.add(fire(wave, "wave %d: %s".formatted(answers.size() + 1, who), payer));
                orders += answers.get(answers.size() - 1).admittedUsers().size();
                SaleView settled = settle(sale, orders, payer);
                say("  settled %.1f s after the first click: %s", (System.nanoTime() - firstClick) / 1e9, settled);
                who = "%d late buyers for the %d units back on sale".formatted(late, settled.available());
            }
            say("payments: %s", payer);
            ApiClient.Response audit = api.audit(tokens.admin(), sale).expect("auditing sale " + sale, 200);
            DemoResult result = new DemoResult(
                    sale,
                    Tally.of(answers).counts(),
                    orders,
                    payer.outcomes(),
                    audit.as(AuditReport.class),
                    webUi.filter(WebUi::answers).map(ui -> ui.purchasesOf(sale)));
            print(result, answers.get(0));
            return result;
        }
    }

    /** The sale, with a per-address bucket that holds every request: they all come from this one address. */
    private void createSale(String sale, int requests) {
        int room = Math.min(1_000_000, requests);
        Duration payTimeout = Duration.ofSeconds(options.payTimeout);
        api.createSale(tokens.admin(), sale, options.units, payTimeout, new RateLimits(null, new Bucket(room, room)))
                .expect("creating sale " + sale, 201, 200);
        say(
                "sale %s: %d units, pay timeout %s, %.0f%% of the winners pay; %d requests per client address"
                        + " (refill %d/s), the per-user limit the api's",
                sale, options.units, Await.text(payTimeout), options.payShare * 100, room, room);
    }

    /** Fires one wave; each winner is handed to the payer the moment its 202 arrives. */
    private Tally fire(Burst wave, String what, Payer payer) throws Exception {
        int size = wave.requests().size();
        int connections = Math.min(CONNECTIONS, size);
        say("%s, %d requests (some retry, some click twice) over %d connections", what, size, connections);
        Tally answered = new Tally(wave.users()::get);
        HttpLoad.Sink sink = (id, status, body, nanos) -> {
            answered.answered(id, status, body, nanos);
            if (status == 202) {
                payer.admitted(wave.users().get(id));
            }
        };
        try (AutoCloseable ticking =
                ticking(() -> "  answered %d/%d; %s".formatted(answered.answered(), size, payer))) {
            new HttpLoad(api.address()).each(connections, wave.requests(), sink);
        }
        say("  answered in %.2f s: %s", answered.seconds(), answered.counts());
        return answered;
    }

    /** Waits until every payment is known and the sale is at rest after {@code orders} admissions. */
    private SaleView settle(String sale, long orders, Payer payer) throws Exception {
        say("waiting (at most %s) until the %d orders ended", Await.text(options.patience()), orders);
        AtomicReference<SaleView> seen = new AtomicReference<>();
        try (AutoCloseable ticking = ticking(() -> "  " + payer + "; sale: " + seen.get())) {
            return Await.until(
                    "the payments and the %d orders of sale %s to end (none PENDING_PAYMENT, their units back in Redis)"
                            .formatted(orders, sale),
                    options.patience(),
                    Duration.ofMillis(200),
                    () -> {
                        ApiClient.Response view = api.sale(tokens.admin(), sale);
                        seen.set(view.expect("reading sale " + sale, 200).as(SaleView.class));
                        return seen.get();
                    },
                    view -> payer.done() && view.atRest(orders));
        }
    }

    /** Prints {@code line} every second until closed. */
    private static AutoCloseable ticking(Supplier<String> line) {
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        ticker.scheduleAtFixedRate(() -> System.out.println(line.get()), 1, 1, TimeUnit.SECONDS);
        return ticker::shutdownNow;
    }

    private void print(DemoResult result, Tally first) {
        System.out.println();
        result.lines().forEach(System.out::println);
        say(
                "latency    wave 1 winners p50 %.1f ms, p99 %.1f ms; losers p50 %.1f ms, p99 %.1f ms",
                first.millis(50, "admitted"),
                first.millis(99, "admitted"),
                first.millis(50, Tally.LOSERS),
                first.millis(99, Tally.LOSERS));
        webUi.filter(ui -> result.purchasesInWebUi().isEmpty())
                .ifPresent(ui -> say("Web UI     not answering at %s (--temporal-ui URL)", ui.base()));
    }

    private static void say(String format, Object... args) {
        System.out.println(String.format(Locale.ROOT, format, args));
    }
}
