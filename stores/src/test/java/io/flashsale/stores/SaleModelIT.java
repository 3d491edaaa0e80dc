package io.flashsale.stores;

import static io.flashsale.stores.testing.TestAdmissions.admit;
import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.admission.Admission;
import io.flashsale.stores.admission.AdmissionOutcome;
import io.flashsale.stores.admission.Reservations;
import io.flashsale.stores.audit.SaleAuditProbe;
import io.flashsale.stores.order.OrderRepository;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleArchive;
import io.flashsale.stores.sale.SaleChanges;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.testing.StoresIntegrationTest;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.workflows.purchase.NewOrder;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A stateful property test of the Lua scripts and repositories of one sale: random interleavings of
 * admit, start, order, pay, expire, cancel, restock, withdraw, close, repair (with an operator's
 * change landing while it gathers its facts) and archive, each done the way the api, the workflow
 * or the archiver does it, with the invariants checked after every step against the stores and a
 * model of the purchases. A failure names the seed and the steps that led to it; {@code
 * -Dflashsale.model.seed=N} replays one seed.
 */
class SaleModelIT extends StoresIntegrationTest {

    private static final int SEQUENCES = 40;
    private static final int STEPS = 60;
    private static final List<String> USERS = List.of("u1", "u2", "u3", "u4", "u5", "u6", "u7");
    /** Few keys, so operators' changes collide; {@code close} is a key a caller may choose. */
    private static final List<String> CHANGE_KEYS = List.of("k1", "k2", "close", "k3");

    @Autowired
    SaleRepository sales;

    @Autowired
    SaleChanges changes;

    @Autowired
    Reservations reservations;

    @Autowired
    SaleArchive archive;

    @Autowired
    PlatformTransactionManager transactions;

    @Test
    void everyInterleavingOfPurchasesChangesAndRepairsKeepsTheInvariants() {
        String fixed = System.getProperty("flashsale.model.seed");
        long first = fixed != null ? Long.parseLong(fixed) : new Random().nextLong();
        int sequences = fixed != null ? 1 : SEQUENCES;
        for (int i = 0; i < sequences; i++) {
            new Run(first + i).run();
        }
    }

    /** What the model knows of one purchase. */
    private enum Stage {
        ADMITTED,
        STARTED,
        ORDERED,
        ENDED
    }

    private final class Run {

        private final long seed;
        private final Random random;
        private final Sale sale = TestSales.open(4);
        private final OrderRepository orders = new OrderRepository(jdbc);
        private final TransactionTemplate transaction = new TransactionTemplate(transactions);
        private final Map<String, Stage> purchases = new LinkedHashMap<>();
        private final Map<String, Admission> admissions = new LinkedHashMap<>();
        private final Map<String, Long> orderIds = new LinkedHashMap<>();
        private final List<String> steps = new ArrayList<>();
        private boolean closed;
        private boolean archived;

        Run(long seed) {
            this.seed = seed;
            this.random = new Random(seed);
        }

        void run() {
            sales.insertIfAbsent(sale);
            loaded(sale);
            for (int step = 0; step < STEPS && !archived; step++) {
                String done;
                try {
                    done = step();
                } catch (RuntimeException e) {
                    throw new AssertionError(failure("a step failed: " + e), e);
                }
                steps.add(done);
                checkInvariants();
            }
        }

        private String step() {
            return switch (random.nextInt(12)) {
                case 0, 1, 2 -> admitOne();
                case 3 -> start();
                case 4, 5 -> order();
                case 6 -> pay();
                case 7 -> end(random.nextBoolean() ? PurchaseStatus.EXPIRED : PurchaseStatus.CANCELLED);
                case 8 -> change();
                case 9 -> repair();
                case 10 -> random.nextInt(4) == 0 ? close() : admitOne();
                default -> archiveIfEnded();
            };
        }

        private String admitOne() {
            String user = pick(USERS);
            String key = random.nextBoolean() ? "a" : "b";
            Admission admission = admit(gate, sale.id(), user, key);
            if (admission.outcome() == AdmissionOutcome.ADMITTED) {
                assertThat(closed).as(failure("admitted after the close")).isFalse();
                purchases.put(admission.purchaseId(), Stage.ADMITTED);
                admissions.put(admission.purchaseId(), admission);
            }
            return "admit " + user + "/" + key + " -> " + admission.outcome();
        }

        /** The api or the relay starts the workflow and drops the entry; confirm.lua finds the hold. */
        private String start() {
            return in(Stage.ADMITTED, purchaseId -> {
                gate.forget(sale.id(), admissions.get(purchaseId).entryId());
                assertThat(reservations.confirm(sale.id(), purchaseId, userOf(purchaseId)))
                        .as(failure("confirm " + purchaseId))
                        .isTrue();
                purchases.put(purchaseId, Stage.STARTED);
                return "start " + purchaseId;
            });
        }

        /** createOrder: MySQL must have every unit Redis admitted. */
        private String order() {
            return in(Stage.STARTED, purchaseId -> {
                Long id = transaction.execute(tx -> orders.takeUnit(sale.id())
                        ? orders.insertPending(new NewOrder(purchaseId, sale.id(), userOf(purchaseId), null, 60))
                        : null);
                assertThat(id)
                        .as(failure("MySQL has no unit for admitted " + purchaseId))
                        .isNotNull();
                orderIds.put(purchaseId, id);
                purchases.put(purchaseId, Stage.ORDERED);
                return "order " + purchaseId;
            });
        }

        private String pay() {
            return in(Stage.ORDERED, purchaseId -> {
                assertThat(orders.markPaid(orderIds.get(purchaseId), "pay-" + purchaseId))
                        .isTrue();
                purchases.put(purchaseId, Stage.ENDED);
                return "pay " + purchaseId;
            });
        }

        /** cancelOrder then releaseReservation, as the workflow compensates. */
        private String end(PurchaseStatus outcome) {
            return in(Stage.ORDERED, purchaseId -> {
                transaction.executeWithoutResult(tx -> {
                    if (orders.endPending(orderIds.get(purchaseId), outcome)) {
                        orders.returnUnit(sale.id());
                    }
                });
                reservations.release(sale.id(), purchaseId);
                purchases.put(purchaseId, Stage.ENDED);
                orderIds.remove(purchaseId);
                return outcome + " " + purchaseId;
            });
        }

        private String change() {
            String key = pick(CHANGE_KEYS);
            int units = 1 + random.nextInt(3);
            SaleChanges.Outcome outcome = random.nextBoolean()
                    ? changes.restock(sale.id(), key, units, "ops")
                    : changes.withdraw(sale.id(), key, units, "ops");
            return "change " + key + " " + units + " -> " + outcome;
        }

        private String close() {
            SaleChanges.Outcome outcome = changes.close(sale.id(), "ops");
            closed = true;
            return "close -> " + outcome;
        }

        /** A repair, with an operator's change landing after it read MySQL, before it writes Redis. */
        private String repair() {
            List<String> meanwhile = new ArrayList<>();
            String outcome = SaleAuditProbe.repair(
                    new SaleAuditProbe.Stores(jdbc, redis, keys, sales, stock, transactions),
                    sale.id(),
                    purchaseId -> purchases.get(purchaseId) != Stage.ENDED,
                    () -> meanwhile.add(change()));
            return "repair -> " + outcome + (meanwhile.isEmpty() ? "" : " (meanwhile " + meanwhile.get(0) + ")");
        }

        private String archiveIfEnded() {
            if (!closed) {
                return close();
            }
            SaleArchive.Outcome outcome = archive.archiveIfFinal(sale.id(), Duration.ofMinutes(5));
            boolean everyPurchaseFinal = purchases.values().stream().allMatch(stage -> stage == Stage.ENDED);
            assertThat(outcome == SaleArchive.Outcome.ARCHIVED)
                    .as(failure("archive " + outcome + " with every purchase final: " + everyPurchaseFinal))
                    .isEqualTo(everyPurchaseFinal);
            archived = outcome == SaleArchive.Outcome.ARCHIVED;
            return "archive -> " + outcome;
        }

        private String in(Stage stage, java.util.function.Function<String, String> action) {
            List<String> candidates = purchases.entrySet().stream()
                    .filter(p -> p.getValue() == stage)
                    .map(Map.Entry::getKey)
                    .toList();
            return candidates.isEmpty() ? admitOne() : action.apply(pick(candidates));
        }

        /**
         * I1 and I2 in MySQL; in Redis, once quiet (every step is): its stock plus its HELD holds is
         * its total, which is MySQL's, and it offers exactly the units MySQL has that no admitted
         * purchase waits for; every change key recorded once.
         */
        private void checkInvariants() {
            Sale now = sales.find(sale.id()).orElseThrow();
            long pendingOrPaid = count("status IN ('PENDING_PAYMENT', 'PAID')");
            assertThat(now.available()).as(failure("I1 available >= 0")).isNotNegative();
            assertThat(now.available() + pendingOrPaid).as(failure("I1")).isEqualTo(now.total());
            assertThat(jdbc.sql("SELECT COUNT(*) FROM orders WHERE sale_id = ? GROUP BY user_id HAVING COUNT(*) > 1")
                            .param(sale.id())
                            .query(Long.class)
                            .list())
                    .as(failure("I2"))
                    .isEmpty();
            assertThat(jdbc.sql(
                                    "SELECT COUNT(*) FROM sale_changes WHERE sale_id = ? GROUP BY change_key HAVING COUNT(*) > 1")
                            .param(sale.id())
                            .query(Long.class)
                            .list())
                    .as(failure("every change recorded once"))
                    .isEmpty();
            if (archived) {
                return;
            }
            long held = probe.heldCount(sale.id());
            long heldWithoutOrder = purchases.entrySet().stream()
                    .filter(p -> p.getValue() == Stage.ADMITTED || p.getValue() == Stage.STARTED)
                    .count();
            Object redisTotal = redis.opsForHash().get(keys.sale(sale.id()).meta(), "total");
            assertThat(probe.redisStock(sale.id()) + held).as(failure("I3")).isEqualTo((long) now.total());
            assertThat(redisTotal).as(failure("Redis' total is MySQL's")).hasToString(Integer.toString(now.total()));
            assertThat(probe.redisStock(sale.id()))
                    .as(failure("Redis offers the units MySQL has that no admission waits for"))
                    .isEqualTo(now.available() - heldWithoutOrder);
        }

        private long count(String condition) {
            return jdbc.sql("SELECT COUNT(*) FROM orders WHERE sale_id = ? AND " + condition)
                    .param(sale.id())
                    .query(Long.class)
                    .single();
        }

        private String failure(String what) {
            return what + " (seed " + seed + ", sale " + sale.id() + ") after:\n  " + String.join("\n  ", steps);
        }

        private String userOf(String purchaseId) {
            return purchaseId.substring(("purchase-" + sale.id() + "-").length());
        }

        private <T> T pick(List<T> from) {
            return from.get(random.nextInt(from.size()));
        }
    }
}
