package io.flashsale.e2e;

import io.flashsale.launcher.Processes;
import io.flashsale.launcher.proxy.Toxiproxy;
import io.flashsale.stores.testing.StoreProbe;
import io.flashsale.testkit.ApiClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A running system with one backing service (MySQL, Temporal, ...) behind a link of the project's
 * one proxy ({@link Toxiproxy}) the test cuts and restores: the subclass's {@code @BeforeAll} calls {@link #startSystem} and, inside
 * its environment change, {@link #proxyTo} for the service it wants to fail.
 */
abstract class ProxiedSystemTest {

    static Link proxy;
    static FlashSaleSystem system;
    static SystemStores storeConnections;
    static StoreProbe stores;
    static ApiClient api;

    @RegisterExtension
    static final HistoriesOnFailure histories = new HistoriesOnFailure(() -> system);

    static void startSystem(UnaryOperator<Map<String, String>> environment) throws Exception {
        system = FlashSaleSystem.start(environment);
        storeConnections = new SystemStores(system.environment());
        stores = storeConnections.probe();
        api = new ApiClient(system.api());
    }

    /** The link to the service: cut closes its connections and refuses new ones, restore heals it. */
    record Link(Toxiproxy toxiproxy, Processes processes) {

        private static final String NAME = "service";

        void cut() {
            change(() -> toxiproxy.breakLink(NAME, "cut"));
        }

        void restore() {
            change(() -> toxiproxy.healLink(NAME, "cut"));
        }

        private static void change(Callable<String> change) {
            try {
                change.call();
            } catch (Exception e) {
                throw new IllegalStateException("the proxy did not take the change", e);
            }
        }
    }

    /** Puts the proxy in front of {@code host:port}; returns the address to use instead. */
    static String proxyTo(String host, int port) {
        try {
            Processes processes = new Processes(
                    Path.of(
                            "target",
                            "e2e-logs",
                            "toxiproxy-" + ProcessHandle.current().pid()),
                    Duration.ofMinutes(1));
            Toxiproxy toxiproxy = Toxiproxy.start(processes, Path.of(System.getProperty("flashsale.root", "..")));
            proxy = new Link(toxiproxy, processes);
            return "127.0.0.1:" + toxiproxy.proxy(Link.NAME, host + ":" + port);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the proxy", e);
        }
    }

    @AfterAll
    static void stopSystem() throws Exception {
        if (storeConnections != null) {
            storeConnections.close();
        }
        if (system != null) {
            system.close();
        }
        if (proxy != null) {
            proxy.processes().close();
        }
        storeConnections = null;
        stores = null;
        system = null;
        proxy = null;
        api = null;
    }
}
