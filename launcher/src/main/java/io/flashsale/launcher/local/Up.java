package io.flashsale.launcher.local;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.Http;
import io.flashsale.launcher.TemporalService;
import io.flashsale.launcher.WorkerDeployment;
import io.flashsale.launcher.cluster.ClusterSpec;
import io.flashsale.launcher.redis.RedisMode;
import io.flashsale.launcher.temporal.DevServer;
import io.flashsale.launcher.temporal.TemporalMode;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/flashsale up}: a Temporal (one already listening on TEMPORAL_ADDRESS, else the dev
 * server with its state in {@code .run/temporal.db}, or the production-like cluster), with {@code
 * --observe} Prometheus and Jaeger, then a worker and the api, each detached in the run folder
 * ({@link RunFolder}). Every port is checked before anything starts, so a taken one leaves nothing
 * half-started.
 */
@Command(
        name = "up",
        mixinStandardHelpOptions = true,
        description = {
            "Start the Temporal dev server (or, with --temporal cluster, the production-like cluster on PostgreSQL)"
                    + " unless TEMPORAL_ADDRESS names a running Temporal, then one worker and the api; wait until both"
                    + " report UP and print the URLs. bin/flashsale first makes sure MariaDB and Redis run and the"
                    + " jars are built."
        })
final class Up implements Callable<Integer> {

    private static final Set<String> LOCAL = Set.of("127.0.0.1", "localhost", "0.0.0.0", "[::1]", "::1");

    @Option(names = "--temporal", defaultValue = "dev", description = "dev or cluster (default: ${DEFAULT-VALUE})")
    TemporalMode temporal;

    @Option(
            names = "--observe",
            description =
                    "Also Prometheus (PROMETHEUS_PORT, 9090, with deploy/helm/flashsale/files/rules.yml) and Jaeger"
                            + " (JAEGER_UI_PORT, 16686; OTLP on JAEGER_OTLP_PORT, 4318), every purchase traced.")
    boolean observe;

    @Option(
            names = "--redis",
            defaultValue = "single",
            description = "single: the Redis of REDIS_URL; sentinel: bin/flashsale also starts a replica of the local"
                    + " Redis and three Sentinels, the apps find the master through them and answer a 202 once the"
                    + " replica has the admission (default: ${DEFAULT-VALUE})")
    RedisMode redis;

    @Option(
            names = "--worker-build",
            paramLabel = "BUILD",
            description =
                    "Run the worker as build BUILD of its Worker Deployment and make that build current, so that"
                            + " 'bin/flashsale worker' can roll out another build during a sale. Default: an unversioned worker.")
    String workerBuild;

    @Option(names = "--build", description = "Build first even when the jars are there (done by bin/flashsale).")
    boolean build;

    private LocalConfig config;
    private RunFolder run;
    private boolean startsTemporal;

    @Override
    public Integer call() throws Exception {
        return LocalCommands.refusable(() -> {
            config = LocalCommands.config();
            run = config.run();
            up(redis == RedisMode.sentinel);
            return 0;
        });
    }

    private void up(boolean sentinel) throws Exception {
        if (sentinel && !config.environment().containsKey("REDIS_SENTINEL_NODES")) {
            throw new Refused(
                    "--redis sentinel: REDIS_SENTINEL_NODES names no Sentinels (bin/flashsale up starts them)");
        }
        if (workerBuild != null) {
            WorkerCommand.valid(workerBuild);
        }
        startsTemporal = temporalStarts();
        if (run.pid(RunFolder.WORKER).isEmpty()) {
            refuseTaken(config.workerPort(), "the worker", "WORKER_PORT");
        }
        if (run.pid(RunFolder.API).isEmpty()) {
            refuseTaken(config.apiPort(), "the api", "API_PORT");
        }
        Observability observability = new Observability(config);
        if (observe) {
            observability.check(startsTemporal);
        }
        List<String> metrics = temporal == TemporalMode.cluster ? startCluster() : startDevServer();
        if (observe) {
            observability.startPrometheus(metrics);
            observability.startJaeger();
        }
        refuseAnUnversionedWorkerWhereABuildIsCurrent();
        startApp(
                config,
                RunFolder.WORKER,
                config.workerPort(),
                workerBuild == null ? List.of() : List.of(RunFolder.buildArgument(workerBuild)));
        startApp(config, RunFolder.API, config.apiPort(), List.of());
        System.out.println("waiting for health (up to " + config.healthTimeout().toSeconds() + "s) ...");
        String failed = "startup failed; 'bin/flashsale down' stops what is still running";
        awaitHealthy(config, RunFolder.WORKER, config.workerPort(), failed);
        awaitHealthy(config, RunFolder.API, config.apiPort(), failed);
        if (workerBuild != null) {
            try (WorkerDeployment deployment = WorkerCommand.deployment(config)) {
                deployment.makeCurrent(workerBuild, WorkerCommand.ROUTABLE_WITHIN);
            }
            System.out.println("worker build " + workerBuild + " is current ('bin/flashsale worker status')");
        }
        banner(sentinel, observe ? observability.banner() : List.of());
    }

    /** Before anything starts: whether a Temporal is to be started (its ports free), or the running one used. */
    private boolean temporalStarts() throws InterruptedException {
        if (run.pid(RunFolder.TEMPORAL).isPresent()) {
            return false;
        }
        if (Http.listening(config.temporalHost(), config.temporalPort())) {
            try {
                DevServer.awaitReady(config.temporalAddress(), config.namespace(), Duration.ofSeconds(10), () -> true);
                return false;
            } catch (IllegalStateException notTemporal) {
                throw new Refused("port " + config.temporalPort() + " (TEMPORAL_ADDRESS=" + config.temporalAddress()
                        + ") is taken by something that is not a Temporal server");
            }
        }
        if (config.temporalConfigured() && !LOCAL.contains(config.temporalHost())) {
            throw new Refused("nothing listens on TEMPORAL_ADDRESS=" + config.temporalAddress()
                    + " (not local, so no dev server is started)");
        }
        refuseTaken(config.temporalUiPort(), "the Temporal Web UI", "TEMPORAL_UI_PORT");
        return true;
    }

    /** The dev server, unless a Temporal runs; returns where Prometheus scrapes its metrics. */
    private List<String> startDevServer() throws Exception {
        List<String> metrics = List.of("127.0.0.1:" + config.temporalMetricsPort());
        if (!startsTemporal) {
            System.out.println(run.pid(RunFolder.TEMPORAL)
                    .map(pid -> "temporal: dev server already running (pid " + pid + ")")
                    .orElse("temporal: using the Temporal service already listening on " + config.temporalAddress()));
            return metrics;
        }
        DevServer.Options options = new DevServer.Options(
                config.temporalHost(),
                config.temporalPort(),
                config.temporalUiPort(),
                run.path().resolve("temporal.db"),
                config.namespace(),
                observe ? config.temporalMetricsPort() : 0);
        try {
            TemporalService.devServer(
                    run, config.root(), options, DevServer.Kind.CLI, FlashSaleStack.niced(config.backEndNice()));
        } catch (IllegalStateException notReady) {
            throw new Refused("temporal did not become ready (" + notReady.getMessage() + "); see "
                    + run.shown(run.log(RunFolder.TEMPORAL)));
        }
        return metrics;
    }

    /**
     * The cluster of this checkout, its processes detached in the run folder, its files in {@code
     * .run/temporal-cluster}, its ports from 10000 above the frontend's; returns where Prometheus
     * scrapes every node's metrics.
     */
    private List<String> startCluster() throws Exception {
        int[] next = {config.temporalPort() + 10000};
        ClusterSpec spec = ClusterSpec.of(
                "dev",
                run.path().resolve("temporal-cluster"),
                config.temporalPort(),
                ClusterSpec.Postgres.fromEnvironment(),
                config.namespace(),
                () -> next[0]++);
        if (run.pid(RunFolder.FRONTEND).isPresent()) {
            System.out.println("temporal: cluster already running");
        } else if (!startsTemporal) {
            throw new Refused("TEMPORAL_ADDRESS=" + config.temporalAddress()
                    + " is taken; --temporal cluster starts a cluster of its own");
        } else {
            System.out.println(
                    "temporal: preparing the cluster (builds temporal-server when missing; minutes the first time) ...");
            TemporalService.cluster(run, config.root(), spec, config::temporalUiPort);
        }
        startsTemporal = true;
        return spec.nodes().stream()
                .map(node -> spec.ip() + ":" + node.metricsPort())
                .toList();
    }

    /**
     * Temporal keeps its routing across runs (the dev server in {@code .run/temporal.db}): with a
     * build current, new purchases go to that build only, and an unversioned worker would get none.
     */
    private void refuseAnUnversionedWorkerWhereABuildIsCurrent() {
        if (workerBuild != null || run.pid(RunFolder.WORKER).isPresent()) {
            return;
        }
        try (WorkerDeployment deployment = WorkerCommand.deployment(config)) {
            deployment.current().ifPresent(current -> {
                throw new Refused(
                        "build " + current + " of the worker is current in this Temporal: an unversioned worker"
                                + " would get no purchase; start with 'bin/flashsale up --worker-build " + current
                                + "' (or 'bin/flashsale down' and 'reset' for a new Temporal)");
            });
        }
    }

    /** Starts the process {@code name} (the api, the worker or a worker of another build) detached, with {@code arguments}. */
    static void startApp(LocalConfig config, String name, int port, List<String> arguments) throws IOException {
        if (config.run().alreadyRunning(name)) {
            return;
        }
        FlashSaleStack.App app = RunFolder.app(name);
        List<String> jar = new ArrayList<>(List.of(
                "-jar",
                FlashSaleStack.built(config.root(), app.module(), "exec").toString()));
        jar.addAll(arguments);
        config.run()
                .start(
                        name,
                        app.command(name, config.backEndNice(), config.jvmFlags(), jar),
                        app.environment(config.environment(), port));
    }

    /** Waits until the process {@code name} reports UP on {@code port}; else its log's tail on stderr and {@code refusal}. */
    static void awaitHealthy(LocalConfig config, String name, int port, String refusal) throws InterruptedException {
        config.run().await(name, config.healthTimeout(), () -> Http.healthy(port), refusal);
    }

    /** Refuses when {@code port} is taken, naming what wanted it and the variable that moves it. */
    static void refuseTaken(int port, String what, String variable) {
        if (Http.listening("127.0.0.1", port)) {
            throw new Refused("port " + port + " (" + what + ") is taken; stop what uses it or set " + variable);
        }
    }

    private void banner(boolean sentinel, List<String> observability) {
        String api = "http://127.0.0.1:" + config.apiPort();
        String worker = "http://127.0.0.1:" + config.workerPort();
        String webUi = startsTemporal || run.pid(RunFolder.TEMPORAL).isPresent()
                ? "http://127.0.0.1:" + config.temporalUiPort() + "/namespaces/" + config.namespace() + "/workflows"
                : "the one of the Temporal service on " + config.temporalAddress();
        List<String> lines = new ArrayList<>(List.of(
                "",
                "flashsale is up",
                "  api             " + api,
                "  api health      " + api + "/actuator/health",
                "  Swagger UI      " + api + "/swagger-ui.html   (OpenAPI: /v3/api-docs)",
                "  api metrics     " + api + "/actuator/prometheus   (admin token only), e.g.",
                "                  curl -H \"Authorization: Bearer $(bin/flashsale token --user ops --admin | tail -1)\" \\",
                "                    " + api + "/actuator/prometheus",
                "  worker health   " + worker + "/actuator/health",
                "  worker metrics  " + worker + "/actuator/prometheus",
                "  Temporal        " + config.temporalAddress() + " (namespace " + config.namespace() + ")",
                "  Web UI          " + webUi,
                "  logs            " + run.shown(run.path().resolve("logs"))
                        + "/   (bin/flashsale logs [api|worker|temporal] [-f])",
                "  token           bin/flashsale token --user alice   (--admin: sale admin; --scope payments: payment service)",
                "  stop            bin/flashsale down"));
        if (sentinel) {
            lines.add("  Redis           master " + config.environment().get("REDIS_SENTINEL_MASTER") + " through the"
                    + " Sentinels " + config.environment().get("REDIS_SENTINEL_NODES") + "; a 202 waits for "
                    + config.environment().getOrDefault("FLASHSALE_REDIS_REPLICATION_REPLICAS", "0") + " replica(s)");
        }
        lines.addAll(observability);
        lines.forEach(System.out::println);
    }
}
