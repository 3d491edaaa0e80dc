package io.flashsale.launcher.temporal;

import io.temporal.testserver.TestServer;
import java.io.Closeable;

/**
 * Temporal's Java test server bound to a port, in real time, with the purchase search attributes
 * registered: the in-process Temporal of the api's integration tests. In memory, no Web UI.
 */
public final class DevTemporalServer {

    private DevTemporalServer() {}

    /** Starts it on {@code port} and registers the search attributes in {@code namespace}; closing the result stops it. */
    public static Closeable start(int port, String namespace) {
        // "lock time skipping": true keeps the server on real time, so pay timers run their full length
        TestServer.PortBoundTestServer server = TestServer.createPortBoundServer(port, true);
        try {
            DevServer.register("127.0.0.1:" + port, namespace);
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }
}
