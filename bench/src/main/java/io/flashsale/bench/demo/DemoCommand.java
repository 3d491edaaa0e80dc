package io.flashsale.bench.demo;

import io.flashsale.bench.Await;
import io.flashsale.bench.Bench;
import io.flashsale.bench.Stack;
import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.PrivateStores;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** {@code bin/flashsale demo}: its options, against {@code --api} or a private stack of its own. */
public final class DemoCommand {

    private DemoCommand() {}

    /** The demo's exit status: 0 when its counts add up and the audit passed; 1 otherwise or when a wait gave up. */
    public static int main(Map<String, String> o) throws Exception {
        try {
            return demo(o).passed() ? 0 : 1;
        } catch (Await.TimedOut gaveUp) {
            System.err.println("demo: " + gaveUp.getMessage());
            return 1;
        }
    }

    /** The demo, against {@code --api} (a running system) or a private stack. */
    static DemoResult demo(Map<String, String> o) throws Exception {
        int buyers = Bench.integer(o, "buyers", 10_000);
        Demo.Options options = new Demo.Options(
                buyers,
                Bench.integer(o, "late-buyers", buyers / 10),
                Bench.integer(o, "units", 500),
                Double.parseDouble(o.getOrDefault("pay-share", "0.5")),
                Duration.ofSeconds(Bench.integer(o, "pay-timeout", 20)),
                Duration.ofSeconds(Bench.integer(o, "settle-margin", 60)),
                Bench.integer(o, "connections", 200));
        Tokens tokens = Tokens.fromEnvironment();
        if (o.containsKey("api")) {
            return new Demo(new ApiClient(URI.create(o.get("api"))), tokens, options, Optional.of(webUi(o))).run();
        }
        PrivateStores stores = PrivateStores.fresh();
        Path root = Path.of(o.getOrDefault("root", "."));
        try (Stack stack = Stack.start(
                root,
                Path.of("target", "demo", "logs"),
                stores,
                Bench.temporalKind(o),
                FlashSaleStack.BACK_END_NICE,
                Map.of())) {
            System.out.println(
                    "private stack up: api " + stack.api() + ", " + stack.temporal() + " (logs target/demo/logs)");
            DemoResult result = new Demo(new ApiClient(stack.api()), stack.tokens(), options, Optional.empty()).run();
            System.out.println("Web UI     none kept: the private stack stops with the demo;"
                    + " run bin/flashsale up first to browse the purchases");
            return result;
        } finally {
            stores.drop();
        }
    }

    private static WebUi webUi(Map<String, String> o) {
        String url = o.getOrDefault(
                "temporal-ui", System.getenv().getOrDefault("TEMPORAL_UI_URL", WebUi.DEFAULT.toString()));
        return new WebUi(URI.create(url), System.getenv().getOrDefault("TEMPORAL_NAMESPACE", "default"));
    }
}
