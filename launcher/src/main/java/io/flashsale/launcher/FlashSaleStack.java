package io.flashsale.launcher;

import io.flashsale.launcher.cluster.ClusterSpec;
import io.flashsale.launcher.temporal.DevServer;
import io.flashsale.testkit.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The system as processes on free ports, for the end-to-end tests, the bench, the chaos run and the
 * demo: a Temporal, then named api and worker processes, each keeping its port across a kill and a
 * restart. {@link #launch} is how every launcher, {@code up} too, starts an app.
 */
public final class FlashSaleStack implements AutoCloseable {

    /** The programs a stack runs: each the module of its jar, its HTTP port given in {@code <APP>_PORT}. */
    public enum App {
        API,
        WORKER;

        public String module() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The JVM flags every app starts with, before its own: C1 only, as a burst would otherwise be spent compiling in C2. */
    public static final List<String> JVM_DEFAULTS = List.of("-XX:TieredStopAtLevel=1");

    /** The api's collector: ZGC, whose pauses stay under a millisecond (docs/performance.md); the worker keeps G1. */
    public static final List<String> API_COLLECTOR = List.of("-XX:+UseZGC");

    /** The niceness of the worker and the dev server on a shared machine: the buyers' answers (the api's) go first. */
    public static final int BACK_END_NICE = 10;

    private record Started(App app, int port, Map<String, String> extra) {}

    private final Builder settings;
    private final Processes processes;
    private final Map<App, AppImage.Image> images = new EnumMap<>(App.class);
    private final Map<String, Started> apps = new LinkedHashMap<>();
    private TemporalService temporal;
    private Map<String, String> environment;

    private FlashSaleStack(Builder settings) throws IOException {
        this.settings = settings;
        this.processes = new Processes(settings.logs, settings.readyTimeout);
    }

    /** A stack whose jars come from the checkout at {@code root} and whose logs go to {@code logs}. */
    public static Builder builder(Path root, Path logs) {
        return new Builder(root, logs);
    }

    /** How a stack is started; {@link #start()} starts its Temporal. */
    public static final class Builder {

        private final Path root;
        private final Path logs;
        private boolean webUi;
        private String clusterName;
        private Duration readyTimeout = Duration.ofSeconds(120);
        private int backEndNice;
        private final Map<App, List<String>> jvmFlags = new EnumMap<>(App.class);
        private Function<TemporalService, Map<String, String>> environment =
                temporal -> Map.of("TEMPORAL_ADDRESS", temporal.address());

        private Builder(Path root, Path logs) {
            this.root = root;
            this.logs = logs;
        }

        /** The dev server serves its Web UI too, on a port of its own. */
        public Builder webUi() {
            this.webUi = true;
            return this;
        }

        /** Temporal is the production-like cluster on databases named after {@code name}, dropped by {@link #close()}. */
        public Builder cluster(String name) {
            this.clusterName = name;
            return this;
        }

        /** How long Temporal and each app may take to report ready (default 2 minutes). */
        public Builder readyTimeout(Duration timeout) {
            this.readyTimeout = timeout;
            return this;
        }

        /** Runs the workers and the dev server at {@code niceness} (default 0), e.g. {@link #BACK_END_NICE}. */
        public Builder backEndNice(int niceness) {
            this.backEndNice = niceness;
            return this;
        }

        /** JVM flags of every process of {@code app}, after {@link #JVM_DEFAULTS}. */
        public Builder jvmFlags(App app, List<String> flags) {
            jvmFlags.put(app, List.copyOf(flags));
            return this;
        }

        /** JVM flags of every app. */
        public Builder jvmFlags(List<String> flags) {
            Arrays.stream(App.values()).forEach(app -> jvmFlags(app, flags));
            return this;
        }

        /** What every app is given (e.g. {@link PrivateStores#environment}), asked once, when the first app starts. */
        public Builder environment(Function<TemporalService, Map<String, String>> environment) {
            this.environment = environment;
            return this;
        }

        /** Starts Temporal and waits until its namespace takes workflows; then {@link FlashSaleStack#start} the apps. */
        public FlashSaleStack start() throws Exception {
            FlashSaleStack stack = new FlashSaleStack(this);
            try {
                stack.temporal = clusterName == null ? stack.startDevServer() : stack.startCluster();
                return stack;
            } catch (Exception | Error e) {
                stack.close();
                throw e;
            }
        }
    }

    private TemporalService startDevServer() throws Exception {
        Path db = settings.logs.toAbsolutePath().resolve("temporal.db");
        Files.deleteIfExists(db);
        int uiPort = settings.webUi ? FreePorts.next() : 0;
        DevServer.Options options =
                new DevServer.Options("127.0.0.1", FreePorts.next(), uiPort, db, DevServer.NAMESPACE, 0);
        return TemporalService.devServer(processes, settings.root, options, niced(settings.backEndNice));
    }

    private TemporalService startCluster() throws Exception {
        Path folder = settings.logs.resolve("temporal-cluster");
        var postgres = ClusterSpec.Postgres.fromEnvironment();
        ClusterSpec spec = ClusterSpec.of(
                settings.clusterName, folder, FreePorts.next(), postgres, DevServer.NAMESPACE, FreePorts::next);
        return TemporalService.cluster(processes, settings.root, spec, FreePorts::next);
    }

    /** Starts {@code names} as processes of {@code app} at once, each on a free port, and waits until each is healthy. */
    public void start(App app, String... names) throws Exception {
        Map<String, Map<String, String>> named = new LinkedHashMap<>();
        Arrays.stream(names).forEach(name -> named.put(name, Map.of()));
        start(app, named);
    }

    /** The same, each name with environment additions of its own. */
    public void start(App app, Map<String, Map<String, String>> named) throws Exception {
        for (Map.Entry<String, Map<String, String>> one : named.entrySet()) {
            if (apps.putIfAbsent(one.getKey(), new Started(app, FreePorts.next(), Map.copyOf(one.getValue())))
                    != null) {
                throw new IllegalArgumentException(one.getKey() + " was started before; restart it instead");
            }
            launch(one.getKey());
        }
        for (String name : named.keySet()) {
            awaitHealthy(processes, name, app(name).port(), settings.readyTimeout);
        }
    }

    /** SIGKILL of the app {@code name} (no shutdown hook, no drain); returns its pid once it is gone. */
    public long kill(String name) {
        Processes.kill(process(name), name);
        return process(name).pid();
    }

    /** Starts the app {@code name} again, on its port with its environment, and waits until it is healthy. */
    public void restart(String name) throws Exception {
        launch(name);
        awaitHealthy(processes, name, app(name).port(), settings.readyTimeout);
    }

    /** Where the app {@code name} answers HTTP. */
    public URI uri(String name) {
        return URI.create("http://127.0.0.1:" + app(name).port());
    }

    /** The latest process of the app {@code name}, alive or not. */
    public Process process(String name) {
        return processes.get(name);
    }

    public TemporalService temporal() {
        return temporal;
    }

    /** What every app of this stack is given (its port aside). */
    public synchronized Map<String, String> environment() {
        if (environment == null) {
            environment = Map.copyOf(settings.environment.apply(temporal));
        }
        return environment;
    }

    /** The stack's processes, for more of them (a proxy, a store of the run's own) stopped with the stack. */
    public Processes processes() {
        return processes;
    }

    private Started app(String name) {
        return Optional.ofNullable(apps.get(name))
                .orElseThrow(() -> new IllegalArgumentException("no app " + name + " in this stack"));
    }

    private void launch(String name) throws IOException, InterruptedException {
        Started started = app(name);
        Map<String, String> env = new HashMap<>(environment());
        env.putAll(started.extra());
        List<String> java = new ArrayList<>(jvmFlags(started.app()));
        java.addAll(image(started.app()).arguments(java, faults(started)));
        launch(processes, started.app(), name, started.port(), settings.backEndNice, java, env);
    }

    /** Starts {@code java ARGUMENTS} as {@code name} of {@code app}: the worker {@link #niced}, the api with its collector. */
    public static void launch(
            Launch launch, App app, String name, int port, int nice, List<String> arguments, Map<String, String> env)
            throws IOException {
        List<String> command = new ArrayList<>(app == App.WORKER ? niced(nice) : List.of());
        command.addAll(List.of(Processes.java(), "-Dflashsale.process=" + name));
        command.addAll(app == App.API ? withApiCollector(arguments) : arguments);
        Map<String, String> environment = new HashMap<>(env);
        environment.put(app.name() + "_PORT", Integer.toString(port));
        launch.start(name, command, environment);
    }

    /** Waits until the app {@code name} reports UP on {@code port}. */
    public static void awaitHealthy(Launch launch, String name, int port, Duration timeout)
            throws InterruptedException {
        launch.await(name, timeout, () -> Await.healthy(port));
    }

    /** {@code flags} with the api's collector, unless they choose a collector themselves (two would not start). */
    static List<String> withApiCollector(List<String> flags) {
        if (flags.stream().anyMatch(flag -> flag.matches("-XX:\\+Use\\w+GC"))) {
            return flags;
        }
        List<String> with = new ArrayList<>(API_COLLECTOR);
        with.addAll(flags);
        return with;
    }

    /** What a back-end process's command starts with: {@code nice -n N}, nothing at niceness 0. */
    public static List<String> niced(int niceness) {
        return niceness == 0 ? List.of() : List.of("nice", "-n", Integer.toString(niceness));
    }

    /** A worker given {@code FLASHSALE_PAUSE_AFTER} runs with the worker's {@code faults} jar (test code) too. */
    private Optional<Path> faults(Started started) throws IOException {
        return started.app() == App.WORKER && started.extra().containsKey("FLASHSALE_PAUSE_AFTER")
                ? Optional.of(built(settings.root, App.WORKER, "faults").toAbsolutePath())
                : Optional.empty();
    }

    /** {@link #JVM_DEFAULTS}, then the stack's flags; the api's with its collector. */
    private List<String> jvmFlags(App app) {
        List<String> flags = new ArrayList<>(JVM_DEFAULTS);
        flags.addAll(settings.jvmFlags.getOrDefault(app, List.of()));
        return app == App.API ? withApiCollector(flags) : flags;
    }

    /** The app's {@link AppImage}, looked up once: later processes run the jar the stack began with. */
    private AppImage.Image image(App app) throws IOException, InterruptedException {
        if (!images.containsKey(app)) {
            Map<String, String> training = new HashMap<>(environment());
            training.put(app.name() + "_PORT", "0");
            Path log = settings.logs.resolve(app.module() + "-image.log");
            Path jar = built(settings.root, app, "exec");
            images.put(app, AppImage.of(jar, jvmFlags(app), training, log, settings.readyTimeout));
        }
        return images.get(app);
    }

    /** The jar the checkout at {@code root} built for {@code app} with {@code classifier}; fails naming it when missing. */
    public static Path built(Path root, App app, String classifier) throws IOException {
        String name = app.module() + "-*-" + classifier + ".jar";
        try (DirectoryStream<Path> jars =
                Files.newDirectoryStream(root.resolve(app.module()).resolve("target"), name)) {
            for (Path jar : jars) {
                return jar;
            }
        } catch (NoSuchFileException missing) {
            // reported below
        }
        throw new IllegalStateException(
                "no " + app.module() + "/target/" + name + "; build first (./mvnw -B -DskipTests install)");
    }

    /** Stops every process in reverse start order (TERM, then KILL after 30 s); a cluster's databases go too. */
    @Override
    public void close() throws Exception {
        processes.close();
        if (temporal != null && temporal.cluster().isPresent()) {
            temporal.cluster().get().dropDatabases();
        }
    }

    @Override
    public String toString() {
        return "stack on " + temporal + " with " + apps.keySet();
    }
}
