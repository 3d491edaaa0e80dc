package io.flashsale.bench;

import io.flashsale.stores.audit.AuditReport;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * {@code bin/flashsale demo}: one flash sale from the first click to the last expiry, with progress
 * lines, then what buyers saw and what the api's audit found in MySQL and Redis.
 */
final class Demo {

    record Options(int buyers, int units, double payShare, Duration payTimeout, int connections) {}

    private final Admin admin;
    private final Tokens tokens;
    private final HttpLoad load;
    private final Requests requests;
    private final Options options;

    Demo(Api api, Tokens tokens, Options options) {
        this.admin = new Admin(api, tokens);
        this.tokens = tokens;
        this.load = new HttpLoad(api.address());
        this.requests = new Requests(api.address());
        this.options = options;
    }

    /** @return true when the audit found the sale consistent (I1) */
    boolean run() throws Exception {
        String sale = "demo" + Long.toString(System.currentTimeMillis(), 36);
        admin.createSale(sale, options.units(), options.payTimeout());
        say(
                "sale %s: %d units, pay timeout %ss, %d buyers (%.0f%% pay)",
                sale, options.units(), options.payTimeout().toSeconds(), options.buyers(), options.payShare() * 100);
        Burst burst = Burst.of(requests, tokens, sale, options.buyers(), System.nanoTime());
        say(
                "firing %d requests (%d buyers; some retry with the same key, some click twice) over %d connections",
                burst.size(), options.buyers(), options.connections());
        long start = System.nanoTime();
        Tally users = burst.newTally();
        withProgress(() -> "  answered %d/%d".formatted(users.answered(), burst.size()), () -> {
            burst.fire(load, options.connections(), users);
            return null;
        });
        long admitted = users.count("admitted");
        say("burst done in %.2fs: %s", users.seconds(), users.counts());
        double settled = withProgress(
                () -> "  PENDING_PAYMENT %d/%d".formatted(pendingQuietly(sale), admitted),
                () -> awaitPending(sale, admitted, start));
        say("all %d winners PENDING_PAYMENT %.2fs after the first click", admitted, settled);
        Tally paid = pay(sale, users);
        say(
                "paid %d of %d winners; waiting for the other %d pay deadlines (%ss)",
                paid.count("paid"),
                admitted,
                admitted - paid.count("paid"),
                options.payTimeout().toSeconds());
        double quiet = withProgress(
                () -> "  PENDING_PAYMENT left: %d".formatted(pendingQuietly(sale)),
                () -> awaitPending(sale, -1, start));
        AuditSummary audit = admin.audit(sale);
        print(users, paid, audit, settled, quiet);
        return audit.mysqlBalanced();
    }

    private Tally pay(String sale, Tally burst) throws IOException {
        List<String> winners = new ArrayList<>(burst.admittedUsers());
        int paying = (int) Math.round(winners.size() * options.payShare());
        List<HttpLoad.Request> payments = new ArrayList<>();
        for (String user : winners.subList(0, paying)) {
            payments.add(new HttpLoad.Request(
                    payments.size(), requests.pay("purchase-" + sale + "-" + user, tokens.buyer(user), "pay-" + user)));
        }
        Iterator<HttpLoad.Request> next = payments.iterator();
        Tally tally = new Tally(null);
        load.run(Math.min(options.connections(), 50), () -> next.hasNext() ? next.next() : null, tally, Long.MAX_VALUE);
        return tally;
    }

    /** Waits until {@code expected} orders are PENDING_PAYMENT (-1: until none is). */
    private double awaitPending(String sale, long expected, long startNanos) throws Exception {
        while (expected < 0 ? admin.pendingPayment(sale) > 0 : admin.pendingPayment(sale) < expected) {
            Thread.sleep(50);
        }
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private int pendingQuietly(String sale) {
        try {
            return admin.pendingPayment(sale);
        } catch (Exception e) {
            return -1;
        }
    }

    interface Step<T> {
        T run() throws Exception;
    }

    private static <T> T withProgress(Supplier<String> line, Step<T> step) throws Exception {
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        ticker.scheduleAtFixedRate(() -> System.out.println(line.get()), 1, 1, TimeUnit.SECONDS);
        try {
            return step.run();
        } finally {
            ticker.shutdownNow();
        }
    }

    private void print(Tally burst, Tally paid, AuditSummary audit, double settled, double quiet) {
        AuditReport result = audit.report();
        String[] losers = {"sold-out", "already-purchased", "same-key"};
        System.out.println();
        say("accepted (202)            %d", burst.count("admitted"));
        burst.counts().forEach((outcome, n) -> {
            if (!outcome.equals("admitted")) {
                say("rejected/answered %-22s %d", outcome, n);
            }
        });
        say("paid                      %d (payment calls: %s)", result.paid(), paid.counts());
        say("expired                   %d", result.expired());
        say(
                "winners latency           p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms",
                burst.millis(50, "admitted"),
                burst.millis(90, "admitted"),
                burst.millis(99, "admitted"),
                burst.millis(100, "admitted"));
        say(
                "losers latency            p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms",
                burst.millis(50, losers),
                burst.millis(90, losers),
                burst.millis(99, losers),
                burst.millis(100, losers));
        say(
                "time to settle            %.2f s (all winners PENDING_PAYMENT), %.2f s until the last expiry",
                settled, quiet);
        say(
                "audit                     total %d, available %d, orders %s, oversold %d, duplicate orders %d, "
                        + "users admitted twice %d, Redis stock %s + HELD %d",
                result.total(),
                result.mysqlAvailable(),
                audit.ordersByStatus(),
                audit.oversold(),
                audit.duplicateOrders(),
                burst.usersAdmittedTwice(),
                result.redisStock(),
                result.heldHolds());
        say(
                "                          I1 available + PENDING_PAYMENT + PAID = total: %s; Redis stock = MySQL available: %s",
                audit.mysqlBalanced() ? "ok" : "VIOLATED",
                Objects.equals(result.redisStock(), (long) result.mysqlAvailable()) ? "ok" : "differs");
    }

    private static void say(String format, Object... args) {
        System.out.println(String.format(Locale.ROOT, format, args));
    }
}
