package io.flashsale.launcher.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** The commands of the local system on the checkout of FLASHSALE_ROOT (else the working folder). */
public final class LocalCommands {

    /** The subcommands, for the one command line to register. */
    public static final Class<?>[] ALL = {
        Up.class, DownCommand.class, StatusCommand.class, LogsCommand.class, Reset.class, WorkerCommand.class
    };

    /** The api's port where API_PORT is unset, for the commands that talk to the api {@code up} started. */
    public static final String API_PORT = "8080";

    /** The dev server's Web UI port where TEMPORAL_UI_PORT is unset. */
    public static final String TEMPORAL_UI_PORT = "8233";

    private LocalCommands() {}

    /** The api {@code up} started, while it runs. */
    public static Optional<URI> runningApi() {
        LocalConfig config = config();
        return config.run().pid(RunFolder.API).map(pid -> URI.create("http://127.0.0.1:" + config.integer("API_PORT")));
    }

    static LocalConfig config() {
        Map<String, String> env = System.getenv();
        return LocalConfig.fromEnvironment(Path.of(env.getOrDefault("FLASHSALE_ROOT", ".")), env);
    }

    /** Runs {@code body}; a refusal, or a failed process, file or build, prints {@code flashsale: MESSAGE} and exits 1. */
    static int refusable(Callable<Integer> body) throws Exception {
        try {
            return body.call();
        } catch (IllegalStateException | IllegalArgumentException | UncheckedIOException | IOException failed) {
            System.out.flush();
            System.err.println("flashsale: " + failed.getMessage());
            return 1;
        }
    }

    @Command(name = "down", description = "Stop the processes 'up' started (recorded in .run/*.pid), nothing else.")
    static final class DownCommand implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            return refusable(() -> {
                RunFolder run = config().run();
                for (String name : run.names()) {
                    run.stop(name);
                }
                return 0;
            });
        }
    }

    @Command(name = "status", description = "Show which of the processes 'up' started run.")
    static final class StatusCommand implements Callable<Integer> {
        @Override
        public Integer call() {
            RunFolder run = config().run();
            for (String name : run.names()) {
                boolean recorded = run.pidFile(name).toFile().exists();
                if (recorded || RunFolder.always(name)) {
                    String state = run.pid(name)
                            .map(pid -> "running (pid " + pid + ")")
                            .orElse(recorded ? "not running (stale pid file)" : "not running");
                    System.out.printf("%-9s %s%n", name, state);
                }
            }
            return 0;
        }
    }
}
