package io.flashsale.chaos;

import static io.flashsale.testkit.ApiClient.UNIT_PRICE;

import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import io.flashsale.workflows.purchase.PurchaseRequest;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The steady open-loop load of a chaos run: {@code rate} operations a second chosen by the seed,
 * buyers' and now and then an operator's, sent on a pool so a slow answer does not slow the load.
 * Each is logged as an {@link Op} when sent (as Jepsen logs an invocation), unknown until answered.
 */
final class ChaosLoad {

    /** Longer than any answer the api gives on purpose (pay and cancel wait up to 10 s on this stack). */
    private static final Duration TIMEOUT = Duration.ofSeconds(12);

    private static final int OPERATOR_PERCENT = 4;
    /** The last sale is closed once this share of the run's time has passed. */
    private static final int CLOSE_AFTER_PERCENT = 60;

    /**
     * Who sends an operation: a buyer of the run (the key of the first click, the payment ids sent
     * so far) or, with user {@code ops} and no purchase, an operator.
     */
    private record Buyer(String saleId, String userId, String purchaseId, String key, List<String> paymentIds) {

        static Buyer of(String saleId, int number) {
            String user = "u" + number;
            return new Buyer(saleId, user, PurchaseRequest.purchaseId(saleId, user), "k" + number, new ArrayList<>());
        }

        static Buyer operator(String saleId) {
            return new Buyer(saleId, "ops", "", "", List.of());
        }
    }

    private final List<ApiClient> apis;
    private final Tokens tokens;
    private final List<String> sales;
    private final Random random;
    private final long startNanos;
    private final Map<Long, Op> history = new ConcurrentHashMap<>();
    private final List<Buyer> buyers = new CopyOnWriteArrayList<>();
    private final AtomicLong ids = new AtomicLong();
    private final ExecutorService senders = Executors.newFixedThreadPool(48);
    private long closeAtNanos = Long.MAX_VALUE;

    ChaosLoad(List<URI> apis, Tokens tokens, List<String> sales, long seed, long startNanos) {
        this.apis = apis.stream()
                .map(api -> new ApiClient(api).waitingUpTo(TIMEOUT))
                .toList();
        this.tokens = tokens;
        this.sales = List.copyOf(sales);
        this.random = new Random(seed);
        this.startNanos = startNanos;
    }

    List<Op> run(int rate, Duration duration) throws InterruptedException {
        long interval = 1_000_000_000L / rate;
        long end = System.nanoTime() + duration.toNanos();
        closeAtNanos = System.nanoTime() + duration.toNanos() * CLOSE_AFTER_PERCENT / 100;
        for (long next = System.nanoTime(); next < end; next += interval) {
            TimeUnit.NANOSECONDS.sleep(next - System.nanoTime());
            senders.execute(choose());
        }
        senders.shutdown();
        if (!senders.awaitTermination(TIMEOUT.toSeconds() * 2, TimeUnit.SECONDS)) {
            senders.shutdownNow();
        }
        return history();
    }

    /**
     * What an operator does once the faults healed: repeats each restock and withdrawal left without
     * an answer (a 5xx or none) under its Idempotency-Key, as a 503 asks, until it is answered or
     * {@code patience} runs out. A change MySQL committed while Redis was down is finished in Redis
     * so (I3). The repeats join the history; returns all of it.
     */
    List<Op> repeatUnansweredChanges(Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        List<Op> unanswered = history().stream()
                .filter(op -> op.outcome() == Op.Outcome.UNKNOWN
                        && (op.kind() == Op.Kind.RESTOCK || op.kind() == Op.Kind.WITHDRAW))
                .toList();
        for (Op change : unanswered) {
            Buyer operator = Buyer.operator(change.saleId());
            while (sendNow(apis.get(0), change.kind(), operator, change.key(), change.amountMinor())
                                    .outcome()
                            == Op.Outcome.UNKNOWN
                    && System.nanoTime() < deadline) {
                TimeUnit.SECONDS.sleep(1);
            }
        }
        return history();
    }

    private List<Op> history() {
        return history.values().stream()
                .sorted(Comparator.comparingLong(Op::id))
                .toList();
    }

    /** The next operation, by the seed: mostly new buyers, the rest on buyers met before. */
    private Runnable choose() {
        int dice = random.nextInt(100);
        ApiClient api = apis.get(random.nextInt(apis.size()));
        if (random.nextInt(100) < OPERATOR_PERCENT) {
            return operator(api);
        }
        if (buyers.isEmpty() || dice < 45) {
            Buyer buyer = Buyer.of(sales.get(random.nextInt(sales.size())), buyers.size());
            buyers.add(buyer);
            return send(api, Op.Kind.BUY, buyer, buyer.key(), 0);
        }
        Buyer buyer = buyers.get(random.nextInt(buyers.size()));
        if (dice < 55) {
            return send(api, Op.Kind.BUY_RETRY, buyer, buyer.key(), 0);
        }
        if (dice < 62) {
            return send(api, Op.Kind.SECOND_CLICK, buyer, buyer.key() + "-again", 0);
        }
        if (dice < 82) {
            String paymentId = "p" + ids.incrementAndGet();
            buyer.paymentIds().add(paymentId);
            return send(api, Op.Kind.PAY, buyer, paymentId, UNIT_PRICE.amountMinor());
        }
        if (dice < 88 && !buyer.paymentIds().isEmpty()) {
            String paymentId =
                    buyer.paymentIds().get(random.nextInt(buyer.paymentIds().size()));
            return send(api, Op.Kind.PAY_DUPLICATE, buyer, paymentId, UNIT_PRICE.amountMinor());
        }
        if (dice < 92) {
            return send(
                    api, Op.Kind.PAY_WRONG_AMOUNT, buyer, "w" + ids.incrementAndGet(), UNIT_PRICE.amountMinor() - 1);
        }
        return send(api, Op.Kind.CANCEL, buyer, "", 0);
    }

    /**
     * An operator's change: the last sale is closed once its time came; otherwise restocks and
     * withdrawals under four keys a kind (now and then another change's key, or other units under a
     * key: a conflict), a move of an end two hours ahead (never of the last sale), or a repair.
     */
    private Runnable operator(ApiClient api) {
        String last = sales.get(sales.size() - 1);
        if (System.nanoTime() >= closeAtNanos) {
            closeAtNanos = Long.MAX_VALUE;
            return send(api, Op.Kind.CLOSE, Buyer.operator(last), "", 0);
        }
        String sale = sales.get(random.nextInt(sales.size()));
        int dice = random.nextInt(100);
        if (dice < 70) {
            boolean restock = dice < 35;
            int slot = random.nextInt(4);
            String key = (random.nextInt(10) == 0 ? "x" : restock ? "r" : "w") + slot;
            int units = random.nextInt(5) == 0 ? 4 + random.nextInt(3) : 1 + slot % 3;
            return send(api, restock ? Op.Kind.RESTOCK : Op.Kind.WITHDRAW, Buyer.operator(sale), key, units);
        }
        if (dice < 80 && !sale.equals(last)) {
            return send(api, Op.Kind.MOVE, Buyer.operator(sale), "", 0);
        }
        return send(api, Op.Kind.REPAIR, Buyer.operator(sale), "", 0);
    }

    private ApiClient.Response call(ApiClient api, Op op) {
        String sale = op.saleId();
        return switch (op.kind()) {
            case BUY, BUY_RETRY, SECOND_CLICK -> api.purchase(tokens.buyer(op.userId()), sale, op.key());
            case PAY, PAY_DUPLICATE, PAY_WRONG_AMOUNT -> api.pay(
                    tokens.payments(),
                    op.purchaseId(),
                    op.key(),
                    new ApiClient.Money(op.amountMinor(), UNIT_PRICE.currency()));
            case CANCEL -> api.cancel(tokens.buyer(op.userId()), op.purchaseId());
            case RESTOCK -> api.post(
                    "/api/sales/" + sale + "/restock", tokens.admin(), units(op), ApiClient.IDEMPOTENCY_KEY, op.key());
            case WITHDRAW -> api.post(
                    "/api/sales/" + sale + "/withdraw", tokens.admin(), units(op), ApiClient.IDEMPOTENCY_KEY, op.key());
            case MOVE -> api.post(
                    "/api/sales/" + sale + "/move",
                    tokens.admin(),
                    Map.of("endsAt", Instant.now().plus(Duration.ofHours(2)).toString()));
            case CLOSE -> api.post("/api/sales/" + sale + "/close", tokens.admin(), null);
            case REPAIR -> api.post("/api/sales/" + sale + "/audit/repair", tokens.admin(), null);
        };
    }

    private static Map<String, Integer> units(Op op) {
        return Map.of("units", (int) op.amountMinor());
    }

    private Runnable send(ApiClient api, Op.Kind kind, Buyer who, String key, long amount) {
        return () -> sendNow(api, kind, who, key, amount);
    }

    /**
     * Logs the operation when sent, as unknown, then with its answer: a 2xx's purchase {@code status}
     * or a refused payment's {@code purchaseStatus} (what made it a refund, or not).
     */
    private Op sendNow(ApiClient api, Op.Kind kind, Buyer who, String key, long amount) {
        long id = ids.incrementAndGet();
        Op sent = Op.sent(id, kind, who.saleId(), who.userId(), who.purchaseId(), key, amount, millis());
        history.put(id, sent);
        ApiClient.Response response;
        try {
            response = call(api, sent);
        } catch (UncheckedIOException | IllegalStateException noAnswer) {
            return sent;
        }
        int status = response.status();
        Op.Outcome outcome = status >= 500 ? Op.Outcome.UNKNOWN : status >= 400 ? Op.Outcome.FAIL : Op.Outcome.OK;
        String problem = status >= 400 ? response.problemType() : "";
        String purchase =
                response.body().path(status < 300 ? "status" : "purchaseStatus").asText("");
        Op answered = sent.answered(outcome, status, problem, purchase, millis());
        history.put(id, answered);
        return answered;
    }

    private long millis() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
