package io.flashsale.cli.demo;

import io.flashsale.bench.Stack;
import io.flashsale.launcher.Await;
import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.PrivateStores;
import io.flashsale.launcher.local.LocalCommands;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bin/flashsale demo}: {@link Demo} on {@code --api} or a private stack; 1 when it did not add up. */
@Command(
        name = "demo",
        description = "One flash sale end to end: a wave of buyers at once, a share of the winners pays, the"
                + " unpaid orders expire, late buyers buy those units again; then the counts, the audit and the"
                + " sale's purchases in the Temporal Web UI. Exit 1 when orders have not ended within the pay timeout"
                + " plus --settle-margin.")
public final class DemoCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--api",
            paramLabel = "URL",
            description = "the api (default: bin/flashsale up's, else a private stack on free ports)")
    private URI api;

    @Option(
            names = "--temporal-ui",
            paramLabel = "URL",
            defaultValue = "${env:TEMPORAL_UI_URL:-" + WebUi.DEFAULT + "}",
            description = "the Temporal Web UI of the system --api names (namespace TEMPORAL_NAMESPACE, else default)")
    private URI temporalUi;

    @Option(names = "--buyers", paramLabel = "N", defaultValue = "10000", description = "the first wave")
    int buyers;

    @Option(
            names = "--late-buyers",
            paramLabel = "N",
            description = "the second wave, once the first wave's orders ended (default: a tenth of --buyers)")
    Integer lateBuyers;

    @Option(names = "--units", paramLabel = "N", defaultValue = "500", description = "units on sale")
    int units;

    @Option(names = "--pay-share", paramLabel = "F", defaultValue = "0.5", description = "the winners that pay")
    double payShare;

    @Option(names = "--pay-timeout", paramLabel = "S", defaultValue = "20", description = "seconds to pay")
    int payTimeout;

    @Option(
            names = "--settle-margin",
            paramLabel = "S",
            defaultValue = "60",
            description = "seconds past the pay timeout a wait for the orders to end may last")
    int settleMargin;

    /** How long a wait for payments and orders to end may last: the pay timeout plus the margin. */
    Duration patience() {
        return Duration.ofSeconds(payTimeout + settleMargin);
    }

    @Override
    public Integer call() throws Exception {
        try {
            return demo().passed() ? 0 : 1;
        } catch (Await.TimedOut gaveUp) {
            spec.commandLine().getErr().println("demo: " + gaveUp.getMessage());
            return 1;
        }
    }

    private DemoResult demo() throws Exception {
        URI running = api != null ? api : LocalCommands.runningApi().orElse(null);
        if (running != null) {
            System.out.println("demo: on the api at " + running);
            WebUi ui = new WebUi(temporalUi, System.getenv().getOrDefault("TEMPORAL_NAMESPACE", "default"));
            return new Demo(new ApiClient(running), Tokens.fromEnvironment(), this, Optional.of(ui)).run();
        }
        PrivateStores stores = PrivateStores.fresh();
        try (Stack stack = Stack.start(
                Path.of("."), Path.of("target", "demo", "logs"), stores, FlashSaleStack.BACK_END_NICE, Map.of())) {
            System.out.println(
                    "private stack up: api " + stack.api() + ", " + stack.temporal() + " (logs target/demo/logs)");
            DemoResult result = new Demo(new ApiClient(stack.api()), stack.tokens(), this, Optional.empty()).run();
            System.out.println("Web UI     none kept: the private stack stops with the demo;"
                    + " run bin/flashsale up first to browse the purchases");
            return result;
        } finally {
            stores.drop();
        }
    }
}
