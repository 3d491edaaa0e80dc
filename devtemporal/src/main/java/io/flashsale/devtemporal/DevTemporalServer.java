package io.flashsale.devtemporal;

import io.flashsale.workflows.PurchaseSearchAttributes;
import io.temporal.testserver.TestServer;
import java.io.Closeable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * Development Temporal service: Temporal's Java test server bound to a port, in real time (no time
 * skipping), with the purchase search attributes registered, so the api and the worker can share it
 * as separate processes. It keeps everything in memory and has no Web UI.
 *
 * <p>Usage: {@code java -jar devtemporal-exec.jar [port|host:port]}; without an argument the port
 * comes from {@code TEMPORAL_ADDRESS} (default 7233) and the namespace from {@code TEMPORAL_NAMESPACE}
 * (default {@code default}).
 */
public final class DevTemporalServer {

    static final int DEFAULT_PORT = 7233;
    static final String DEFAULT_NAMESPACE = "default";

    private DevTemporalServer() {}

    public static void main(String[] args) throws InterruptedException {
        int port = port(args.length > 0 ? args[0] : System.getenv("TEMPORAL_ADDRESS"));
        String namespace = orDefault(System.getenv("TEMPORAL_NAMESPACE"), DEFAULT_NAMESPACE);
        Closeable server = start(port, namespace);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(server), "devtemporal-shutdown"));
        System.out.printf(
                "Temporal dev server ready on 127.0.0.1:%d (namespace %s, search attributes %s; no Web UI)%n",
                port, namespace, attributeNames());
        new CountDownLatch(1).await();
    }

    /**
     * Starts the test server on {@code port} without time skipping and registers the purchase search
     * attributes in {@code namespace}. Closing the result stops the server.
     */
    public static Closeable start(int port, String namespace) {
        // the flag is "lock time skipping": true keeps the server on real time, so pay timers run
        // for their full length as they would on a production Temporal
        boolean realTime = true;
        TestServer.PortBoundTestServer server = TestServer.createPortBoundServer(port, realTime);
        try {
            SearchAttributeRegistration.register("127.0.0.1:" + port, namespace, PurchaseSearchAttributes.all());
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    static int port(String address) {
        if (address == null || address.isBlank()) {
            return DEFAULT_PORT;
        }
        String port = address.substring(address.lastIndexOf(':') + 1).trim();
        return Integer.parseInt(port);
    }

    private static String orDefault(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }

    private static String attributeNames() {
        return PurchaseSearchAttributes.all().stream()
                .map(key -> key.getName() + " (Keyword)")
                .collect(Collectors.joining(", "));
    }

    private static void closeQuietly(Closeable server) {
        try {
            server.close();
        } catch (Exception e) {
            System.err.println("Temporal dev server did not close cleanly: " + e);
        }
    }
}
