package io.flashsale.launcher.temporal;

import io.flashsale.launcher.LauncherMain;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * {@code java -jar launcher-exec.jar COMMAND ...}, for launchers that are not Java (the {@code
 * bin/flashsale} script):
 *
 * <ul>
 *   <li>{@code command --root DIR [--ip IP] [--port P] [--ui-port U] [--db-file F] [--namespace N]}:
 *       finds or builds the Temporal CLI ({@link TemporalCli}) and prints the command that starts the
 *       dev server ({@link DevServer}), one argument per line; the first line is {@code CLI} or
 *       {@code TEST_SERVER}. What it does and why goes to stderr.
 *   <li>{@code await ADDRESS NAMESPACE SECONDS [PID]}: exits 0 once the server is ready ({@link
 *       Readiness}); 1 after SECONDS, or as soon as the process PID (the server's) has exited.
 *   <li>{@code test-server NAMESPACE PORT}: runs the fallback, Temporal's Java test server.
 *   <li>{@code jaeger --root DIR}: finds or builds Jaeger ({@link Jaeger}) and prints its path.
 * </ul>
 */
public final class DevTemporalMain {

    static final String TEST_SERVER = "test-server";

    private DevTemporalMain() {}

    public static void main(String[] args) throws Exception {
        // named apart from logback.xml, so the jar configures no logging where it is a library
        System.setProperty("logback.configurationFile", "launcher-logback.xml");
        if (args.length == 0) {
            fail("usage: command|await|test-server|jaeger ...");
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        switch (args[0]) {
            case "command" -> printCommand(options(rest));
            case "await" -> await(rest);
            case TEST_SERVER -> DevTemporalServer.run(rest.get(0), Integer.parseInt(rest.get(1)));
            case "jaeger" -> printJaeger(options(rest));
            default -> fail("unknown command " + args[0]);
        }
    }

    private static void printCommand(Map<String, String> options) {
        Path root = Path.of(options.getOrDefault("--root", "."));
        DevServer.Options server = new DevServer.Options(
                options.getOrDefault("--ip", "127.0.0.1"),
                Integer.parseInt(options.getOrDefault("--port", "7233")),
                Integer.parseInt(options.getOrDefault("--ui-port", "0")),
                options.containsKey("--db-file") ? Path.of(options.get("--db-file")) : null,
                options.getOrDefault("--namespace", "default"));
        DevServer.Command command = DevServer.command(
                server, new TemporalCli(root, System.err::println).locateOrBuild(), javaPrefix(), System.err::println);
        System.out.println(command.kind());
        command.arguments().forEach(System.out::println);
    }

    private static void printJaeger(Map<String, String> options) {
        Path root = Path.of(options.getOrDefault("--root", "."));
        new Jaeger(root, System.err::println)
                .locateOrBuild()
                .ifPresentOrElse(System.out::println, () -> fail("no Jaeger (see above)"));
    }

    /**
     * One process polls over one channel: a cold JVM per probe can spend a probe's whole RPC timeout
     * starting up on a loaded machine, and then no probe ever succeeds.
     */
    private static void await(List<String> args) throws InterruptedException {
        Optional<ProcessHandle> server =
                args.size() > 3 ? ProcessHandle.of(Long.parseLong(args.get(3))) : Optional.empty();
        BooleanSupplier alive =
                args.size() > 3 ? () -> server.map(ProcessHandle::isAlive).orElse(false) : () -> true;
        try {
            Readiness.await(args.get(0), args.get(1), Duration.ofSeconds(Long.parseLong(args.get(2))), alive);
        } catch (IllegalStateException e) {
            System.err.println("launcher: " + e.getMessage());
            System.exit(1);
        }
    }

    /** How to run this class again: {@code java -jar <this jar>}, or {@code java -cp ...} in a build. */
    public static List<String> javaPrefix() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("java.class.path");
        if (classpath.endsWith(".jar") && !classpath.contains(File.pathSeparator)) {
            return List.of(java, "-jar", classpath);
        }
        return List.of(java, "-cp", classpath, LauncherMain.class.getName());
    }

    /** {@code --name value} pairs, as every launcher main of the project takes them. */
    public static Map<String, String> options(List<String> args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.size(); i += 2) {
            options.put(args.get(i), args.get(i + 1));
        }
        return options;
    }

    private static void fail(String message) {
        System.err.println("launcher: " + message);
        System.exit(2);
    }
}
