package io.flashsale.launcher;

import io.flashsale.launcher.temporal.DevServer;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A development Temporal server run as a child process of {@link Processes}: the real one ({@code
 * temporal server start-dev}) or Temporal's Java test server ({@link DevServer}). It can be
 * SIGKILLed and started again on the same database file, as a crashed server would be.
 */
public final class TemporalProcess implements TemporalService {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private final Processes processes;
    private final DevServer.Options options;
    private final DevServer.Kind kind;
    private final List<String> command;

    private TemporalProcess(Processes processes, DevServer.Options options, DevServer.Kind kind, List<String> command) {
        this.processes = processes;
        this.options = options;
        this.kind = kind;
        this.command = command;
    }

    /**
     * Starts the server of {@code kind} after {@code launcher} ({@link DevServer#command}) and waits
     * until it is ready; the CLI is built into {@code root/.tools} when needed.
     */
    public static TemporalProcess start(
            Processes processes,
            Path root,
            DevServer.Options options,
            DevServer.Kind kind,
            List<String> launcher,
            Consumer<String> log)
            throws Exception {
        TemporalProcess temporal =
                new TemporalProcess(processes, options, kind, DevServer.command(kind, options, root, launcher, log));
        temporal.restart();
        return temporal;
    }

    public DevServer.Kind kind() {
        return kind;
    }

    @Override
    public String address() {
        return options.address();
    }

    @Override
    public Optional<URI> webUi() {
        return kind == DevServer.Kind.CLI && options.uiPort() > 0
                ? Optional.of(URI.create("http://" + options.ip() + ":" + options.uiPort()))
                : Optional.empty();
    }

    @Override
    public Map<String, ProcessHandle> processes() {
        return Map.of(DevServer.PROCESS, process().toHandle());
    }

    /** The live server process. */
    public Process process() {
        return processes.get(DevServer.PROCESS);
    }

    /** SIGKILL (no shutdown of any kind), after checking the pid still runs this server. */
    public void kill() throws InterruptedException {
        Processes.kill(process(), DevServer.marker(kind), "Temporal server");
    }

    /** Starts the server (again: same port, same database file) and waits until it is ready. */
    public void restart() throws Exception {
        DevServer.start(processes, command, options, READY_TIMEOUT);
    }

    /** Log of the current server process. */
    public Path log() {
        return processes.log(DevServer.PROCESS);
    }

    /** For messages: which server, where. */
    @Override
    public String toString() {
        return (kind == DevServer.Kind.CLI ? "Temporal dev server (CLI)" : "Temporal Java test server") + " on "
                + address() + webUi().map(ui -> ", Web UI " + ui).orElse("");
    }
}
