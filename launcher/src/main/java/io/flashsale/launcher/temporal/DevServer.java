package io.flashsale.launcher.temporal;

import io.flashsale.launcher.Await;
import io.flashsale.workflows.PurchaseSearchAttributes;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.operatorservice.v1.AddSearchAttributesRequest;
import io.temporal.api.operatorservice.v1.ListSearchAttributesRequest;
import io.temporal.common.SearchAttributeKey;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import io.temporal.testserver.TestServer;
import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The development Temporal server ({@code temporal server start-dev} of the Temporal CLI) with the
 * purchase search attributes registered, as a plain command every launcher runs by its own pid.
 */
public final class DevServer {

    /** Where and how it listens: {@code uiPort} 0 headless, {@code dbFile} null in memory, {@code metricsPort} 0 none. */
    public record Options(String ip, int port, int uiPort, Path dbFile, String namespace, int metricsPort) {

        public String address() {
            return ip + ":" + port;
        }
    }

    /** The namespace of every Temporal the launcher starts (where TEMPORAL_NAMESPACE is unset, {@code up}'s). */
    public static final String NAMESPACE = "default";

    /** The name of the server's process, in every launcher. */
    public static final String PROCESS = "temporal";

    /** The Temporal CLI, the version whose server the cluster ({@code TemporalCluster.SERVER_VERSION}) runs. */
    public static final String CLI_MODULE = "github.com/temporalio/cli@v1.5.1";

    private DevServer() {}

    /** Polls {@code address} until {@code namespace} lists every purchase search attribute; fails once not {@code alive}. */
    public static void awaitReady(String address, String namespace, Duration timeout, BooleanSupplier alive)
            throws InterruptedException {
        OperatorServiceStubs stubs = stubs(address);
        try {
            Await.until("the Temporal server on " + address, timeout, alive, () -> ready(stubs, namespace));
        } finally {
            stubs.shutdownNow();
        }
    }

    /**
     * Temporal's Java test server on {@code port}, in real time and in memory, with the search attributes
     * registered in {@code namespace}: the in-process Temporal of the api's integration tests.
     */
    public static Closeable startTestServer(int port, String namespace) {
        // "lock time skipping": true keeps the server on real time, so pay timers run their full length
        TestServer.PortBoundTestServer server = TestServer.createPortBoundServer(port, true);
        try {
            register("127.0.0.1:" + port, namespace);
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** Registers the purchase search attributes in {@code namespace}; one that exists is fine. */
    public static void register(String address, String namespace) {
        OperatorServiceStubs stubs = stubs(address);
        try {
            for (SearchAttributeKey<?> key : PurchaseSearchAttributes.all()) {
                try {
                    stubs.blockingStub()
                            .addSearchAttributes(AddSearchAttributesRequest.newBuilder()
                                    .setNamespace(namespace)
                                    .putSearchAttributes(key.getName(), key.getValueType())
                                    .build());
                } catch (StatusRuntimeException e) {
                    if (e.getStatus().getCode() != Status.Code.ALREADY_EXISTS
                            && !String.valueOf(e.getStatus().getDescription()).contains("already exists")) {
                        throw e;
                    }
                }
            }
        } finally {
            stubs.shutdownNow();
        }
    }

    private static OperatorServiceStubs stubs(String address) {
        return OperatorServiceStubs.newServiceStubs(OperatorServiceStubsOptions.newBuilder()
                .setTarget(address)
                .setRpcTimeout(Duration.ofSeconds(5))
                .validateAndBuildWithDefaults());
    }

    private static boolean ready(OperatorServiceStubs stubs, String namespace) {
        try {
            Set<String> registered = stubs.blockingStub()
                    .listSearchAttributes(ListSearchAttributesRequest.newBuilder()
                            .setNamespace(namespace)
                            .build())
                    .getCustomAttributesMap()
                    .keySet();
            return PurchaseSearchAttributes.all().stream()
                    .map(SearchAttributeKey::getName)
                    .allMatch(registered::contains);
        } catch (StatusRuntimeException e) {
            // the in-process test server lists no search attributes; it registers them on start
            return e.getStatus().getCode() == Status.Code.UNIMPLEMENTED;
        }
    }

    /** The Temporal CLI: {@code TEMPORAL_CLI}, {@code .tools/temporal}, the PATH's, or built. */
    public static Path cli(Path root, Consumer<String> log) {
        GoTool tool = GoTool.inModule(root, "temporal-cli", CLI_MODULE, List.of("./cmd/temporal"), log);
        return GoTool.configured("TEMPORAL_CLI")
                .or(() -> Optional.of(tool.binary("temporal")).filter(Files::isExecutable))
                .or(() -> GoTool.onPath("temporal"))
                .or(() -> tool.program("temporal"))
                .orElseThrow(() -> new IllegalStateException(
                        "no Temporal CLI (TEMPORAL_CLI, .tools/, the PATH) and it cannot be built (see above)"));
    }

    /** {@code temporal server start-dev} with this project's namespace and search attributes. */
    public static List<String> cliCommand(Path cli, Options options) {
        List<String> command = new ArrayList<>(List.of(cli.toString()));
        add(command, "server start-dev --ip %s --port %d", options.ip(), options.port());
        add(command, "--namespace %s --log-level warn", options.namespace());
        if (options.uiPort() > 0) {
            add(command, "--ui-ip %s --ui-port %d", options.ip(), options.uiPort());
        } else {
            command.add("--headless");
        }
        if (options.dbFile() != null) {
            command.addAll(List.of("--db-filename", options.dbFile().toString()));
            // a write-ahead log, synced at checkpoints rather than at every commit: a killed server
            // loses nothing (the log is in the OS cache), a machine crash may lose the last commits
            add(command, "--sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=normal");
        }
        if (options.metricsPort() > 0) {
            add(command, "--metrics-port %d", options.metricsPort());
        }
        // the search attributes are registered once at start: no refresh of their cache on every read;
        // one partition per task queue: a single server has no use for four, which forward polls and tasks
        add(command, "--dynamic-config-value system.forceSearchAttributesCacheRefreshOnRead=false");
        add(command, "--dynamic-config-value matching.numTaskqueueReadPartitions=1");
        add(command, "--dynamic-config-value matching.numTaskqueueWritePartitions=1");
        PurchaseSearchAttributes.all().forEach(key -> add(command, "--search-attribute %s=Keyword", key.getName()));
        return command;
    }

    /** The words of {@code format}, formatted with {@code values} (none of which holds a space). */
    private static void add(List<String> command, String format, Object... values) {
        command.addAll(List.of(format.formatted(values).split(" ")));
    }
}
