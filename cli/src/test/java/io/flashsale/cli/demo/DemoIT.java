package io.flashsale.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.bench.Stack;
import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.PrivateStores;
import io.flashsale.stores.audit.AuditVerdict;
import io.flashsale.testkit.ApiClient;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * The demo on a private stack (api, worker, dev Temporal as processes) with a pay timeout of 2 s,
 * shorter than the sale takes: half the winners of the first wave never pay, their orders expire
 * and late buyers buy those units again. The resale does not hang on luck: the late wave starts
 * only once every first-wave order ended, and it has more buyers than units came back.
 */
class DemoIT {

    private static final int UNITS = 20;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void finishesWithCountsThatAddUpWhenUnpaidOrdersExpireAndTheirUnitsAreSoldAgain() throws Exception {
        Path root = Path.of(System.getProperty("flashsale.root", ".."));
        PrivateStores stores = PrivateStores.fresh();
        try (Stack stack = Stack.start(
                root, Path.of("target", "demo-it", "logs"), stores, FlashSaleStack.BACK_END_NICE, Map.of())) {
            WebUi ui = new WebUi(stack.temporal().webUi().orElseThrow(), "default");
            DemoCommand options = CommandLine.populateCommand(
                    new DemoCommand(), "--buyers=60", "--late-buyers=30", "--units=" + UNITS, "--pay-timeout=2");

            DemoResult result = new Demo(new ApiClient(stack.api()), stack.tokens(), options, Optional.of(ui)).run();

            assertThat(result.requests()).doesNotContainKeys("rate-limited", "connection-error");
            assertThat(result.settled()).isTrue();
            assertThat(result.orders())
                    .isEqualTo((long) result.audit().paid()
                            + result.audit().expired()
                            + result.audit().cancelled());
            assertThat(result.audit().expired()).isPositive();
            assertThat(result.resold()).isPositive().isEqualTo(result.orders() - UNITS);
            assertThat(result.payments())
                    .containsEntry("PAID", (long) result.audit().paid());
            assertThat(result.payments()).doesNotContainKey("error");
            assertThat(result.audit().result()).isEqualTo(AuditVerdict.PASS);
            assertThat(result.passed()).isTrue();
            assertThat(result.purchasesInWebUi()).contains(ui.purchasesOf(result.sale()));
        } finally {
            stores.drop();
        }
    }
}
