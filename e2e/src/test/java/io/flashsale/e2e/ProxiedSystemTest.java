package io.flashsale.e2e;

import io.flashsale.stores.testing.StoreProbe;
import io.flashsale.testkit.ApiClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A running system with one backing service (MySQL, Temporal, ...) behind a {@link TcpProxy} the
 * test cuts and restores: the subclass's {@code @BeforeAll} calls {@link #startSystem} and, inside
 * its environment change, {@link #proxyTo} for the service it wants to fail.
 */
abstract class ProxiedSystemTest {

    static TcpProxy proxy;
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

    /** Puts the proxy in front of {@code host:port}; returns the address to use instead. */
    static String proxyTo(String host, int port) {
        try {
            proxy = TcpProxy.to(host, port);
            return "127.0.0.1:" + proxy.port();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
            proxy.close();
        }
        storeConnections = null;
        stores = null;
        system = null;
        proxy = null;
        api = null;
    }
}
