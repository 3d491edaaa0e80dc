package io.flashsale.launcher.local;

import io.flashsale.launcher.Await;
import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.TemporalService;
import io.flashsale.launcher.WorkerDeployment;
import io.flashsale.launcher.cluster.ClusterSpec;
import io.flashsale.launcher.redis.RedisMode;
import io.flashsale.launcher.temporal.DevServer;
import io.flashsale.launcher.temporal.TemporalMode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/flashsale up}: a Temporal, with {@code --observe} Prometheus and Jaeger, then a worker
 * and the api, detached in the {@link RunFolder}; every port is checked before anything starts.
 */
@Command(
        name = "up",
        description = "Start the Temporal dev server (or the cluster) unless TEMPORAL_ADDRESS names a running"
                + " Temporal, then one worker and the api; wait until both report UP and print the URLs.")
final class Up implements Callable<Integer> {

    private static final Set<String> LOCAL = Set.of("127.0.0.1", "localhost", "0.0.0.0", "[::1]", "::1");

    @Option(names = "--temporal", defaultValue = "dev", description = "dev or cluster (default: ${DEFAULT-VALUE})")
    TemporalMode temporal;

    @Option(names = "--observe", description = "Also Prometheus (PROMETHEUS_PORT) and Jaeger (JAEGER_UI_PORT).")
    boolean observe;

    @Option(
            names = "--redis",
            defaultValue = "single",
            description = "single (REDIS_URL) or sentinel (a replica and three Sentinels; default: ${DEFAULT-VALUE})")
    RedisMode redis;

    @Option(
            names = "--worker-build",
            paramLabel = "BUILD",
            description = "Run the worker as build BUILD of its Worker Deployment and make it current.")
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
            up();
            return 0;
        });
    }

    private void up() throws Exception {
        if (redis == RedisMode.sentinel && !config.environment().containsKey("REDIS_SENTINEL_NODES")) {
            throw new IllegalStateException(
                    "--redis sentinel: REDIS_SENTINEL_NODES names no Sentinels (bin/flashsale up starts them)");
        }
        if (workerBuild != null) {
            WorkerCommand.valid(workerBuild);
        }
        startsTemporal = temporalStarts();
        for (String app : List.of(RunFolder.WORKER, RunFolder.API)) {
            if (run.pid(app).isEmpty()) {
                config.refuseTaken(app.toUpperCase(Locale.ROOT) + "_PORT", "the " + app);
            }
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
        List<String> build = workerBuild == null ? List.of() : List.of(RunFolder.buildArgument(workerBuild));
        startApp(config, RunFolder.WORKER, config.integer("WORKER_PORT"), build);
        startApp(config, RunFolder.API, config.integer("API_PORT"), List.of());
        System.out.println("waiting for health (up to " + config.healthTimeout().toSeconds() + "s) ...");
        FlashSaleStack.awaitHealthy(run, RunFolder.WORKER, config.integer("WORKER_PORT"), config.healthTimeout());
        FlashSaleStack.awaitHealthy(run, RunFolder.API, config.integer("API_PORT"), config.healthTimeout());
        if (workerBuild != null) {
            try (WorkerDeployment deployment = WorkerCommand.deployment(config)) {
                deployment.makeCurrent(workerBuild, WorkerCommand.ROUTABLE_WITHIN);
            }
            System.out.println("worker build " + workerBuild + " is current ('bin/flashsale worker status')");
        }
        banner(observe ? observability.banner() : "");
    }

    /** Before anything starts: whether a Temporal is to be started (its ports free), or the running one used. */
    private boolean temporalStarts() throws InterruptedException {
        if (run.pid(RunFolder.TEMPORAL).isPresent()) {
            return false;
        }
        if (Await.listening(config.temporalHost(), config.temporalPort())) {
            try {
                DevServer.awaitReady(config.temporalAddress(), config.namespace(), Duration.ofSeconds(10), () -> true);
                return false;
            } catch (IllegalStateException notTemporal) {
                throw new IllegalStateException("port " + config.temporalPort() + " (TEMPORAL_ADDRESS="
                        + config.temporalAddress() + ") is taken by something that is not a Temporal server");
            }
        }
        if (config.given().containsKey("TEMPORAL_ADDRESS") && !LOCAL.contains(config.temporalHost())) {
            throw new IllegalStateException("nothing listens on TEMPORAL_ADDRESS=" + config.temporalAddress()
                    + " (not local, so no dev server is started)");
        }
        config.refuseTaken("TEMPORAL_UI_PORT", "the Temporal Web UI");
        return true;
    }

    /** The dev server, unless a Temporal runs; returns where Prometheus scrapes its metrics. */
    private List<String> startDevServer() throws Exception {
        List<String> metrics = List.of("127.0.0.1:" + config.integer("TEMPORAL_METRICS_PORT"));
        if (!startsTemporal) {
            System.out.println(run.pid(RunFolder.TEMPORAL)
                    .map(pid -> "temporal: dev server already running (pid " + pid + ")")
                    .orElse("temporal: using the Temporal service already listening on " + config.temporalAddress()));
            return metrics;
        }
        DevServer.Options options = new DevServer.Options(
                config.temporalHost(),
                config.temporalPort(),
                config.integer("TEMPORAL_UI_PORT"),
                run.path().resolve("temporal.db"),
                config.namespace(),
                observe ? config.integer("TEMPORAL_METRICS_PORT") : 0);
        try {
            TemporalService.devServer(run, config.root(), options, FlashSaleStack.niced(config.backEndNice()));
        } catch (IllegalStateException notReady) {
            throw new IllegalStateException(notReady.getMessage() + "; see " + run.shown(run.log(RunFolder.TEMPORAL)));
        }
        return metrics;
    }

    /** The cluster, its files in {@code .run/temporal-cluster}, its ports from 10000 above the frontend's. */
    private List<String> startCluster() throws Exception {
        int[] next = {config.temporalPort() + 10000};
        Path folder = run.path().resolve("temporal-cluster");
        var postgres = ClusterSpec.Postgres.fromEnvironment();
        ClusterSpec spec =
                ClusterSpec.of("dev", folder, config.temporalPort(), postgres, config.namespace(), () -> next[0]++);
        if (run.pid(RunFolder.FRONTEND).isPresent()) {
            System.out.println("temporal: cluster already running");
        } else if (!startsTemporal) {
            throw new IllegalStateException("TEMPORAL_ADDRESS=" + config.temporalAddress()
                    + " is taken; --temporal cluster starts a cluster of its own");
        } else {
            System.out.println("temporal: preparing the cluster (builds temporal-server when missing) ...");
            TemporalService.cluster(run, config.root(), spec, () -> config.integer("TEMPORAL_UI_PORT"));
        }
        startsTemporal = true;
        return spec.nodes().stream()
                .map(node -> spec.ip() + ":" + node.metricsPort())
                .toList();
    }

    /** Temporal keeps its routing across runs: with a build current, an unversioned worker would get no purchase. */
    private void refuseAnUnversionedWorkerWhereABuildIsCurrent() {
        if (workerBuild != null || run.pid(RunFolder.WORKER).isPresent()) {
            return;
        }
        try (WorkerDeployment deployment = WorkerCommand.deployment(config)) {
            deployment.current().ifPresent(current -> {
                throw new IllegalStateException("build " + current
                        + " of the worker is current in this Temporal: an unversioned"
                        + " worker would get no purchase; start with 'bin/flashsale up --worker-build " + current
                        + "' (or 'bin/flashsale down' and 'reset' for a new Temporal)");
            });
        }
    }

    /** Starts the process {@code name} (the api or a worker of any build) detached, unless it runs. */
    static void startApp(LocalConfig config, String name, int port, List<String> arguments) throws IOException {
        if (config.run().alreadyRunning(name)) {
            return;
        }
        FlashSaleStack.App app = RunFolder.app(name);
        Path jar = FlashSaleStack.built(config.root(), app, "exec");
        List<String> java = new ArrayList<>(config.jvmFlags());
        java.addAll(List.of("-jar", jar.toString()));
        java.addAll(arguments);
        FlashSaleStack.launch(config.run(), app, name, port, config.backEndNice(), java, config.environment());
    }

    private void banner(String observability) {
        String api = "http://127.0.0.1:" + config.integer("API_PORT");
        String worker = "http://127.0.0.1:" + config.integer("WORKER_PORT");
        String webUi = startsTemporal || run.pid(RunFolder.TEMPORAL).isPresent()
                ? "http://127.0.0.1:" + config.integer("TEMPORAL_UI_PORT") + "/namespaces/" + config.namespace()
                        + "/workflows"
                : "the one of the Temporal service on " + config.temporalAddress();
        String sentinels = redis == RedisMode.sentinel
                ? "  Redis           master " + config.environment().get("REDIS_SENTINEL_MASTER") + " through the"
                        + " Sentinels " + config.environment().get("REDIS_SENTINEL_NODES") + "; a 202 waits for "
                        + config.environment().getOrDefault("FLASHSALE_REDIS_REPLICATION_REPLICAS", "0")
                        + " replica(s)\n"
                : "";
        String text =
                """

                flashsale is up
                  api             {api}   (health: /actuator/health)
                  Swagger UI      {api}/swagger-ui.html   (OpenAPI: /v3/api-docs)
                  api metrics     {api}/actuator/prometheus   (admin token only), e.g.
                                  curl -H "Authorization: Bearer $(bin/flashsale token --user ops --admin | tail -1)" \\
                                    {api}/actuator/prometheus
                  worker          {worker}/actuator/health, /actuator/prometheus
                  Temporal        {temporal} (namespace {namespace})
                  Web UI          {webUi}
                  logs            {logs}/   (bin/flashsale logs [api|worker|temporal] [-f])
                  token           bin/flashsale token --user alice   (--admin: sale admin; --scope payments)
                  stop            bin/flashsale down
                """;
        Map<String, String> values = Map.of(
                "{api}",
                api,
                "{worker}",
                worker,
                "{temporal}",
                config.temporalAddress(),
                "{namespace}",
                config.namespace(),
                "{webUi}",
                webUi,
                "{logs}",
                run.shown(run.path().resolve("logs")));
        for (Map.Entry<String, String> value : values.entrySet()) {
            text = text.replace(value.getKey(), value.getValue());
        }
        System.out.print(text + sentinels + observability);
    }
}
