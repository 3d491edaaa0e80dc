package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/flashsale sale ...} against the running system, one test per command: what it prints,
 * and its exit code when the api refuses (the problem's type and detail in the output).
 */
class SaleCommandsIT extends RunningSystemTest {

    @Test
    void createPrintsTheNewSale() throws Exception {
        String id = newId();

        Launcher.Run created = Launcher.sale(
                system.api(), "create", "--id", id, "--name", "Phone", "--stock", "3", "--price", "19900");

        assertThat(created.exitCode()).as(created.output()).isZero();
        assertThat(created.output())
                .contains("sale      " + id + " (Phone), 19900 EUR a unit, pay within PT15M")
                .contains("units     total 3, available 3, Redis 3");
    }

    @Test
    void listShowsEverySaleInARow() throws Exception {
        String id = sale(2);

        Launcher.Run listed = Launcher.sale(system.api(), "list");

        assertThat(listed.exitCode()).as(listed.output()).isZero();
        assertThat(listed.output()).contains("SALE", "STATE").containsPattern(id + " +open +2 +2 +2 ");
    }

    @Test
    void showPrintsTheSaleAndFailsForAnUnknownOne() throws Exception {
        String id = sale(2);

        Launcher.Run shown = Launcher.sale(system.api(), "show", id);
        Launcher.Run unknown = Launcher.sale(system.api(), "show", "tnosuchsale");

        assertThat(shown.exitCode()).as(shown.output()).isZero();
        assertThat(shown.output()).contains("orders    PENDING_PAYMENT 0, PAID 0, EXPIRED 0, CANCELLED 0");
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.output()).contains("404 sale-not-found: no sale tnosuchsale");
    }

    @Test
    void restockAddsTheUnitsOncePerKeyAndRecordsWhoAddedThem() throws Exception {
        String id = sale(2);

        Launcher.Run first = Launcher.sale(system.api(), "restock", id, "3", "--key", "r1", "--as", "amy");
        Launcher.Run again = Launcher.sale(system.api(), "restock", id, "3", "--key", "r1", "--as", "amy");

        assertThat(first.exitCode()).as(first.output()).isZero();
        assertThat(again.exitCode()).as(again.output()).isZero();
        assertThat(again.output())
                .contains("units     total 5, available 5, Redis 5")
                .contains("  amy  RESTOCK +3 (key r1)");
    }

    @Test
    void withdrawTakesTheUnitsAndSaysHowManyItTook() throws Exception {
        String id = sale(2);

        Launcher.Run withdrawn = Launcher.sale(system.api(), "withdraw", id, "5", "--key", "w1");

        assertThat(withdrawn.exitCode()).as(withdrawn.output()).isZero();
        assertThat(withdrawn.output()).contains("total 0, available 0, Redis 0", "WITHDRAW -2 of 5 asked (key w1)");
    }

    @Test
    void moveSetsTheWindowAndFailsForOneInThePast() throws Exception {
        String id = sale(2);
        Instant ends = Instant.now().plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.SECONDS);

        Launcher.Run moved = Launcher.sale(system.api(), "move", id, "--ends", ends.toString());
        Launcher.Run past = Launcher.sale(system.api(), "move", id, "--ends", "2020-01-01T00:00:00Z");

        assertThat(moved.exitCode()).as(moved.output()).isZero();
        assertThat(moved.output()).contains("window    creation to " + ends + ": open");
        assertThat(past.exitCode()).isEqualTo(1);
        assertThat(past.output()).contains("422 window-in-past");
    }

    @Test
    void closeEndsTheSaleAndARestockAfterwardsFailsWithTheProblem() throws Exception {
        String id = sale(2);

        Launcher.Run closed = Launcher.sale(system.api(), "close", id);
        Launcher.Run refused = Launcher.sale(system.api(), "restock", id, "1");

        assertThat(closed.exitCode()).as(closed.output()).isZero();
        assertThat(closed.output()).contains(": closed", "CLOSE, ends ");
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.output()).contains("409 sale-closed: sale " + id + " has closed");
    }

    private static String sale(int units) {
        String id = newId();
        api.createSale(TestTokens.admin(), id, units, Duration.ofMinutes(15)).expect("create " + id, 201);
        return id;
    }

    private static String newId() {
        return "cli" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
    }
}
