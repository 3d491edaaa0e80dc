package io.flashsale.launcher.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "logs",
        description = "Print the log of a process 'up' started (.run/logs/NAME.log); without a name all of them,"
                + " each under its name.")
final class LogsCommand implements Callable<Integer> {

    @Parameters(
            arity = "0..1",
            paramLabel = "NAME",
            description = "api, worker, temporal, prometheus, jaeger, or a cluster node (temporal-frontend, ...)")
    String name;

    @Option(
            names = {"-f", "--follow"},
            description = "Then follow them (tail -F) until Ctrl-C.")
    boolean follow;

    @Override
    public Integer call() throws Exception {
        return LocalCommands.refusable(() -> {
            RunFolder run = LocalCommands.config().run();
            if (name != null && !run.names().contains(name)) {
                throw new IllegalStateException(
                        "logs: unknown process '" + name + "' (api, worker, worker-BUILD, temporal,"
                                + " prometheus, jaeger, or a cluster node: temporal-frontend, ...)");
            }
            if (name != null && !Files.exists(run.log(name))) {
                throw new IllegalStateException("logs: no log of " + name + " (" + run.shown(run.log(name))
                        + " is missing; 'bin/flashsale up' writes it)");
            }
            // every log there, each under its name; a missing one of a process up always starts is named too
            List<String> shown = name != null
                    ? List.of(name)
                    : run.names().stream()
                            .filter(one -> RunFolder.always(one) || Files.exists(run.log(one)))
                            .toList();
            List<Path> logs = shown.stream().map(run::log).filter(Files::exists).toList();
            if (logs.isEmpty()) {
                throw new IllegalStateException("logs: no logs in "
                        + run.shown(run.path().resolve("logs")) + "/ ('bin/flashsale up' writes them)");
            }
            if (follow) {
                return tail(logs);
            }
            for (String one : shown) {
                Path log = run.log(one);
                if (name == null) {
                    System.out.print(one.equals(shown.get(0)) ? "" : "\n");
                    System.out.println(
                            Files.exists(log)
                                    ? "==> " + one + " (" + run.shown(log) + ") <=="
                                    : "==> " + one + ": no log (" + run.shown(log) + " is missing) <==");
                }
                if (Files.exists(log)) {
                    System.out.flush();
                    Files.copy(log, System.out);
                    System.out.flush();
                }
            }
            return 0;
        });
    }

    /** {@code tail -F} heads each file with "==> FILE <==" when it follows several. */
    private static int tail(List<Path> logs) throws Exception {
        List<String> command = new ArrayList<>(List.of("tail", "-n", "+1", "-F"));
        logs.forEach(log -> command.add(log.toString()));
        Process tail = new ProcessBuilder(command).inheritIO().start();
        // Ctrl-C or a TERM stops this JVM: tail goes with it
        Runtime.getRuntime().addShutdownHook(new Thread(tail::destroy, "logs-tail-stop"));
        return tail.waitFor();
    }
}
