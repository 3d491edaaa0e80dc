package io.flashsale.launcher;

import io.flashsale.launcher.temporal.DevServer;
import io.flashsale.launcher.temporal.Readiness;
import io.flashsale.launcher.temporal.TemporalCli;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A development Temporal server run as a child process of {@link Processes}: the real one ({@code
 * temporal server start-dev}) unless the launcher was told to use Temporal's Java test server or no
 * CLI can be had ({@link DevServer}). It can be SIGKILLed and started again on the same database
 * file, as a crashed server would be.
 */
public final class TemporalProcess implements TemporalService {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private final Processes processes;
    private final DevServer.Options options;
    private final DevServer.Command command;
    private final List<String> launcher;
    private int starts;

    private TemporalProcess(
            Processes processes, DevServer.Options options, DevServer.Command command, List<String> launcher) {
        this.processes = processes;
        this.options = options;
        this.command = command;
        this.launcher = launcher;
    }

    /**
     * Starts the server as {@code temporal} and waits until it is ready. {@code kind} CLI: the real
     * server, built from its Go module into {@code root/.tools} when needed (falls back to the test
     * server where that is impossible, saying so through {@code log}); TEST_SERVER: the test server.
     * {@code launcher} runs the server's command (e.g. {@code nice -n 10}, which executes it in its
     * own process, so the pid stays the server's); empty for none.
     */
    public static TemporalProcess start(
            Processes processes,
            Path root,
            DevServer.Options options,
            DevServer.Kind kind,
            List<String> launcher,
            Consumer<String> log)
            throws Exception {
        Optional<Path> cli = kind == DevServer.Kind.CLI ? new TemporalCli(root, log).locateOrBuild() : Optional.empty();
        DevServer.Command command = DevServer.command(options, cli, DevServer.javaPrefix(), log);
        TemporalProcess temporal = new TemporalProcess(processes, options, command, List.copyOf(launcher));
        temporal.startProcess();
        return temporal;
    }

    public DevServer.Kind kind() {
        return command.kind();
    }

    @Override
    public String address() {
        return options.address();
    }

    @Override
    public Optional<URI> webUi() {
        return command.kind() == DevServer.Kind.CLI && options.uiPort() > 0
                ? Optional.of(URI.create("http://" + options.ip() + ":" + options.uiPort()))
                : Optional.empty();
    }

    @Override
    public java.util.Map<String, ProcessHandle> processes() {
        return java.util.Map.of("temporal", process().toHandle());
    }

    /** The live server process. */
    public Process process() {
        return processes.get(name());
    }

    /** SIGKILL (no shutdown of any kind), after checking the pid still runs this server's command. */
    public void kill() throws InterruptedException {
        Process process = process();
        String commandLine = process.info().commandLine().orElse("");
        if (!process.isAlive() || !commandLine.startsWith(command.arguments().get(0))) {
            throw new IllegalStateException(
                    "pid " + process.pid() + " is not the live Temporal server: " + commandLine);
        }
        process.destroyForcibly();
        process.waitFor();
    }

    /** Starts the same server again (same port, same database file) and waits until it is ready. */
    public void restart() throws Exception {
        if (process().isAlive()) {
            throw new IllegalStateException(
                    "the Temporal server still runs (pid " + process().pid() + ")");
        }
        startProcess();
    }

    private void startProcess() throws Exception {
        starts++;
        List<String> commandLine = new ArrayList<>(launcher);
        commandLine.addAll(command.arguments());
        Process process = processes.start(name(), commandLine, java.util.Map.of());
        Readiness.await(options.address(), options.namespace(), READY_TIMEOUT, process::isAlive);
    }

    private String name() {
        return starts <= 1 ? "temporal" : "temporal-" + starts;
    }

    /** Log of the current server process. */
    public Path log() {
        return processes.log(name());
    }

    /** For messages: which server, where. */
    @Override
    public String toString() {
        return (command.kind() == DevServer.Kind.CLI ? "Temporal dev server (CLI)" : "Temporal Java test server")
                + " on " + address() + webUi().map(ui -> ", Web UI " + ui).orElse("");
    }
}
