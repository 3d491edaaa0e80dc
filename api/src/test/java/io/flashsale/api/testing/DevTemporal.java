package io.flashsale.api.testing;

import io.flashsale.launcher.temporal.DevServer;
import io.flashsale.testkit.FreePorts;
import java.io.Closeable;
import java.io.IOException;

/**
 * The in-process Temporal of an api test context: {@link DevServer#startTestServer} (real time, search
 * attributes registered) on a free port. Started by the first {@link #target()} call, which the
 * context makes while it resolves {@code spring.temporal.connection.target}; closed with the context
 * (it is a bean of {@link ApiTestConfiguration}).
 */
public final class DevTemporal implements AutoCloseable {

    public static final String NAMESPACE = "default";

    private static DevTemporal current;

    private final Closeable server;
    private final int port;

    private DevTemporal(Closeable server, int port) {
        this.server = server;
        this.port = port;
    }

    /** {@code 127.0.0.1:<port>} of the running server, starting one when there is none. */
    public static String target() {
        return "127.0.0.1:" + current().port;
    }

    static synchronized DevTemporal current() {
        if (current == null) {
            int port = FreePorts.next();
            current = new DevTemporal(DevServer.startTestServer(port, NAMESPACE), port);
        }
        return current;
    }

    @Override
    public void close() throws IOException {
        synchronized (DevTemporal.class) {
            if (current == this) {
                current = null;
            }
        }
        server.close();
    }
}
