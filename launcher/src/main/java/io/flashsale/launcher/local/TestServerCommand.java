package io.flashsale.launcher.local;

import io.flashsale.launcher.temporal.DevServer;
import io.flashsale.launcher.temporal.DevTemporalServer;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** The dev server's fallback, Temporal's Java test server, as a process of its own ({@link DevServer}). */
@Command(name = DevServer.TEST_SERVER, hidden = true)
final class TestServerCommand implements Callable<Integer> {

    @Parameters(index = "0")
    String namespace;

    @Parameters(index = "1")
    int port;

    @Override
    public Integer call() throws Exception {
        DevTemporalServer.run(namespace, port);
        return 0;
    }
}
