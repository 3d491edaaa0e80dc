package io.flashsale.launcher.temporal;

import io.temporal.testserver.TestServer;
import java.io.Closeable;
import java.util.concurrent.CountDownLatch;

/**
 * Temporal's Java test server bound to a port, in real time (no time
 * skipping), with the purchase search attributes registered, so the api and the worker can share it
 * as separate processes. It keeps everything in memory and has no Web UI.
 *
 * <p>A process of its own ({@link DevServer.Kind#TEST_SERVER}: {@code bench} or {@code demo --temporal test-server}),
 * or the in-process Temporal of the api's integration tests, where api and worker share one JVM.
 */
public final class DevTemporalServer {

    private DevTemporalServer() {}

    /** {@code NAMESPACE PORT}: runs the server until the JVM is stopped. */
    public static void main(String[] args) throws InterruptedException {
        String namespace = args[0];
        int port = Integer.parseInt(args[1]);
        start(port, namespace); // in memory: a stopped JVM leaves nothing to close
        System.out.printf("Temporal test server ready on 127.0.0.1:%d (namespace %s; no Web UI)%n", port, namespace);
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
            DevServer.register("127.0.0.1:" + port, namespace);
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }
}
