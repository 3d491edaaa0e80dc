package io.flashsale.cli.demo;

import io.flashsale.bench.Admin;
import io.flashsale.bench.AuditSummary;
import io.flashsale.bench.Await;
import io.flashsale.bench.Burst;
import io.flashsale.bench.HttpLoad;
import io.flashsale.bench.Requests;
import io.flashsale.bench.SaleView;
import io.flashsale.bench.Tally;
import io.flashsale.stores.admission.RateLimits;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * {@code bin/flashsale demo}: one flash sale from the first click to the last expiry. A first wave
 * of buyers all at once; a share of the winners pays as soon as admitted, the others let their pay
 * deadline pass, which gives their units back. Once every order ended, a wave of late buyers buys
 * those units again. Progress lines meanwhile, then what happened (orders, paid, expired, resold),
 * the api's audit and where to see the purchases in the Temporal Web UI. Every wait has a deadline.
 */
final class Demo {

    /**
     * @param buyers the first wave, all at once
     * @param lateBuyers the second wave, once the first wave's orders ended (0: none)
     * @param settleMargin how long past the pay timeout a wait for orders to end may last
     */
    record Options(
            int buyers,
            int lateBuyers,
            int units,
            double payShare,
            Duration payTimeout,
            Duration settleMargin,
            int connections) {

        Duration settleTimeout() {
            return payTimeout.plus(settleMargin);
        }
    }

    /** The limit of every rate-limit bucket. */
    private static final int MAX_BUCKET = 1_000_000;

    private final ApiClient api;
    private final Admin admin;
    private final Tokens tokens;
    private final HttpLoad load;
    private final Requests requests;
    private final Options options;
    private final Optional<WebUi> webUi;
    private long firstClick;

    /** {@code webUi}: the Temporal Web UI of the system, when it has one to show. */
    Demo(ApiClient api, Tokens tokens, Options options, Optional<WebUi> webUi) {
        this.api = api;
        this.admin = new Admin(api, tokens);
        this.tokens = tokens;
        this.load = new HttpLoad(api.address());
        this.requests = new Requests(api.address());
        this.options = options;
        this.webUi = webUi;
    }

    /** What the waves of buyers answered, the orders they were admitted to, the payments' outcomes. */
    private record Sold(List<Tally> answers, long orders, Map<String, Long> payments) {}

    DemoResult run() throws Exception {
        String sale = "demo" + Long.toString(System.currentTimeMillis(), 36);
        List<Burst> waves = waves(sale);
        createSale(sale, waves);
        Sold sold = sell(sale, waves);
        AuditSummary audit = admin.audit(sale);
        Optional<URI> link = webUi.filter(WebUi::answers).map(ui -> ui.purchasesOf(sale));
        DemoResult result = DemoResult.of(
                sale, Tally.of(sold.answers()).counts(), sold.orders(), sold.payments(), audit.report(), link);
        print(result, audit, sold.answers());
        return result;
    }

    /** Each wave, then until its orders ended; the next wave buys the units unpaid orders gave back. */
    private Sold sell(String sale, List<Burst> waves) throws Exception {
        List<Tally> answers = new ArrayList<>();
        long orders = 0;
        try (Payer payer = new Payer(api, tokens, sale, options.payShare(), options.settleTimeout())) {
            firstClick = System.nanoTime();
            String who = options.buyers() + " buyers at once";
            for (Burst wave : waves) {
                Tally answered = fire(wave, answers.size() + 1, who, payer);
                answers.add(answered);
                orders += answered.admittedUsers().size();
                SaleView settled = settle(sale, orders, payer);
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
        waves.add(Burst.of(requests, tokens, sale, "u", options.buyers(), seed));
        if (options.lateBuyers() > 0) {
            waves.add(Burst.of(requests, tokens, sale, "late", options.lateBuyers(), seed + 1));
        }
        return waves;
    }

    /**
     * The sale, with a per-address bucket that holds every request of the demo: they all come from
     * this one address, where the api's default (300) would turn most of them away. The per-user
     * bucket stays the api's.
     */
    private void createSale(String sale, List<Burst> waves) {
        int room = Math.min(MAX_BUCKET, waves.stream().mapToInt(Burst::size).sum());
        admin.createSale(
                sale, options.units(), options.payTimeout(), new RateLimits(null, new RateLimits.Bucket(room, room)));
        say(
                "sale %s: %d units, pay timeout %s, %.0f%% of the winners pay",
                sale, options.units(), Await.text(options.payTimeout()), options.payShare() * 100);
        say(
                "its rate limit per client address: %d requests (refill %d/s), room for every request of this demo,"
                        + " which all come from this one address; the per-user limit stays the api's",
                room, room);
    }

    /** Fires one wave; each winner is handed to the payer the moment its 202 arrives. */
    private Tally fire(Burst wave, int number, String who, Payer payer) throws Exception {
        int connections = Math.min(options.connections(), wave.size());
        say(
                "wave %d: %s, %d requests (some retry with the same key, some click twice) over %d connections",
                number, who, wave.size(), connections);
        Tally answered = wave.newTally();
        HttpLoad.Sink sink = (id, status, body, nanos) -> {
            answered.answered(id, status, body, nanos);
            if (status == 202) {
                payer.admitted(wave.user(id));
            }
        };
        try (AutoCloseable ticking =
                ticking(() -> "  answered %d/%d; %s".formatted(answered.answered(), wave.size(), payer.progress()))) {
            wave.fire(load, connections, sink);
        }
        say("  answered in %.2f s: %s", answered.seconds(), answered.counts());
        return answered;
    }

    /** Waits, at most the pay timeout plus the margin, until the payments and then the orders ended. */
    private SaleView settle(String sale, long orders, Payer payer) throws Exception {
        Duration limit = options.settleTimeout();
        long deadline = System.nanoTime() + limit.toNanos();
        say("waiting (at most %s) until the %d orders are PAID, EXPIRED or CANCELLED", Await.text(limit), orders);
        SaleView settled;
        try (AutoCloseable ticking = ticking(() -> "  %s; sale: %s".formatted(payer.progress(), saleQuietly(sale)))) {
            payer.awaitOutcomes(left(deadline));
            String what = "the %d orders of sale %s to end (none PENDING_PAYMENT, their units back in Redis)";
            settled = Await.until(
                    what.formatted(orders, sale),
                    left(deadline),
                    Duration.ofMillis(200),
                    () -> admin.sale(sale),
                    view -> view.settled(orders));
        }
        say("  settled %.1f s after the first click: %s", (System.nanoTime() - firstClick) / 1e9, settled);
        return settled;
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }

    private Object saleQuietly(String sale) {
        try {
            return admin.sale(sale);
        } catch (RuntimeException e) {
            return "unreadable (" + e.getMessage() + ")";
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
        String[] losers = {"sold-out", "already-purchased", "same-key"};
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
                first.millis(50, losers),
                first.millis(99, losers));
        webUi.filter(ui -> result.purchasesInWebUi().isEmpty())
                .ifPresent(ui -> say("%-10s not answering at %s (--temporal-ui URL)", "Web UI", ui.base()));
    }

    private static void say(String format, Object... args) {
        System.out.println(String.format(Locale.ROOT, format, args));
    }
}
