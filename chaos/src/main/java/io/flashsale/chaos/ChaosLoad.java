package io.flashsale.chaos;

import static io.flashsale.testkit.ApiClient.UNIT_PRICE;

import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.ApiClient.Money;
import io.flashsale.testkit.Tokens;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The open-loop load of a chaos run, chosen by the seed: buyers' and now and then an operator's
 * operations, each logged as an {@link Op} when sent (as Jepsen logs an invocation).
 */
final class ChaosLoad {

    /** Longer than any answer the api gives on purpose (pay and cancel wait up to 10 s on this stack). */
    private static final Duration TIMEOUT = Duration.ofSeconds(12);

    private static final int OPERATOR_PERCENT = 4;
    /** The last sale is closed once this share of the run's time has passed. */
    private static final int CLOSE_AFTER_PERCENT = 60;

    /** A buyer of the run (the key of its first click, the payment ids sent so far) or an operator ({@code ops}). */
    private record Buyer(String saleId, String userId, String key, List<String> paymentIds) {

        static Buyer operator(String saleId) {
            return new Buyer(saleId, "ops", "", List.of());
        }
    }

    private final List<ApiClient> apis;
    private final Tokens tokens;
    private final List<String> sales;
    private final Random random;
    private final long startNanos;
    private final SortedMap<Long, Op> history = new ConcurrentSkipListMap<>();
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

    void run(int rate, Duration duration) throws InterruptedException {
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
    }

    /**
     * Repeats each restock and withdrawal left unanswered under its key until answered, as a 503 asks,
     * so one MySQL committed while Redis was down is finished (I3); returns the whole history.
     */
    List<Op> repeatUnansweredChanges(Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        List<Op> unanswered = history.values().stream()
                .filter(op -> op.outcome() == Op.Outcome.UNKNOWN
                        && (op.kind() == Op.Kind.RESTOCK || op.kind() == Op.Kind.WITHDRAW))
                .toList();
        for (Op change : unanswered) {
            Buyer operator = Buyer.operator(change.saleId());
            Op repeat = send(apis.get(0), change.kind(), operator, change.key(), change.amountMinor());
            while (repeat.outcome() == Op.Outcome.UNKNOWN && System.nanoTime() < deadline) {
                TimeUnit.SECONDS.sleep(1);
                repeat = send(apis.get(0), change.kind(), operator, change.key(), change.amountMinor());
            }
        }
        return List.copyOf(history.values());
    }

    /** The next operation, by the seed: mostly new buyers, the rest on buyers met before. */
    private Runnable choose() {
        int dice = random.nextInt(100);
        ApiClient api = apis.get(random.nextInt(apis.size()));
        if (random.nextInt(100) < OPERATOR_PERCENT) {
            return operator(api);
        }
        if (buyers.isEmpty() || dice < 45) {
            String sale = sales.get(random.nextInt(sales.size()));
            Buyer buyer = new Buyer(sale, "u" + buyers.size(), "k" + buyers.size(), new ArrayList<>());
            buyers.add(buyer);
            return () -> send(api, Op.Kind.BUY, buyer, buyer.key(), 0);
        }
        Buyer buyer = buyers.get(random.nextInt(buyers.size()));
        long price = UNIT_PRICE.amountMinor();
        if (dice < 55) {
            return () -> send(api, Op.Kind.BUY_RETRY, buyer, buyer.key(), 0);
        }
        if (dice < 62) {
            return () -> send(api, Op.Kind.SECOND_CLICK, buyer, buyer.key() + "-again", 0);
        }
        if (dice < 82) {
            String paymentId = "p" + ids.incrementAndGet();
            buyer.paymentIds().add(paymentId);
            return () -> send(api, Op.Kind.PAY, buyer, paymentId, price);
        }
        if (dice < 88 && !buyer.paymentIds().isEmpty()) {
            String paymentId =
                    buyer.paymentIds().get(random.nextInt(buyer.paymentIds().size()));
            return () -> send(api, Op.Kind.PAY_DUPLICATE, buyer, paymentId, price);
        }
        if (dice < 92) {
            String paymentId = "w" + ids.incrementAndGet();
            return () -> send(api, Op.Kind.PAY_WRONG_AMOUNT, buyer, paymentId, price - 1);
        }
        return () -> send(api, Op.Kind.CANCEL, buyer, "", 0);
    }

    /**
     * The last sale's close once its time came, else restocks and withdrawals under four keys a kind
     * (now and then a conflict), a move of an end (never the last sale's), or a repair.
     */
    private Runnable operator(ApiClient api) {
        String last = sales.get(sales.size() - 1);
        if (System.nanoTime() >= closeAtNanos) {
            closeAtNanos = Long.MAX_VALUE;
            return () -> send(api, Op.Kind.CLOSE, Buyer.operator(last), "", 0);
        }
        Buyer operator = Buyer.operator(sales.get(random.nextInt(sales.size())));
        int dice = random.nextInt(100);
        if (dice < 70) {
            boolean restock = dice < 35;
            int slot = random.nextInt(4);
            String key = (random.nextInt(10) == 0 ? "x" : restock ? "r" : "w") + slot;
            int units = random.nextInt(5) == 0 ? 4 + random.nextInt(3) : 1 + slot % 3;
            return () -> send(api, restock ? Op.Kind.RESTOCK : Op.Kind.WITHDRAW, operator, key, units);
        }
        Op.Kind kind = dice < 80 && !operator.saleId().equals(last) ? Op.Kind.MOVE : Op.Kind.REPAIR;
        return () -> send(api, kind, operator, "", 0);
    }

    private ApiClient.Response call(ApiClient api, Op op) {
        String sale = op.saleId();
        return switch (op.kind()) {
            case BUY, BUY_RETRY, SECOND_CLICK -> api.purchase(tokens.buyer(op.userId()), sale, op.key());
            case PAY, PAY_DUPLICATE, PAY_WRONG_AMOUNT -> api.pay(
                    tokens.payments(), op.purchaseId(), op.key(), new Money(op.amountMinor(), UNIT_PRICE.currency()));
            case CANCEL -> api.cancel(tokens.buyer(op.userId()), op.purchaseId());
            case RESTOCK -> api.restock(tokens.admin(), sale, op.key(), (int) op.amountMinor());
            case WITHDRAW -> api.withdraw(tokens.admin(), sale, op.key(), (int) op.amountMinor());
            case MOVE -> api.moveSale(
                    tokens.admin(),
                    sale,
                    Map.of("endsAt", Instant.now().plusSeconds(7200).toString()));
            case CLOSE -> api.closeSale(tokens.admin(), sale);
            case REPAIR -> api.repair(tokens.admin(), sale);
        };
    }

    /** Logs the operation when sent, as unknown, then with its answer. */
    private Op send(ApiClient api, Op.Kind kind, Buyer who, String key, long amount) {
        long id = ids.incrementAndGet();
        long sentAt = millis();
        Op sent = new Op(id, kind, who.saleId(), who.userId(), key, amount, sentAt, 0, "", "", -1);
        history.put(id, sent);
        try {
            ApiClient.Response answer = call(api, sent);
            int status = answer.status();
            String problem = status >= 400 ? answer.problemType() : "";
            String purchase = answer.body()
                    .path(status < 300 ? "status" : "purchaseStatus")
                    .asText("");
            Op answered = new Op(
                    id, kind, who.saleId(), who.userId(), key, amount, sentAt, status, problem, purchase, millis());
            history.put(id, answered);
            return answered;
        } catch (UncheckedIOException | IllegalStateException noAnswer) {
            return sent;
        }
    }

    private long millis() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
