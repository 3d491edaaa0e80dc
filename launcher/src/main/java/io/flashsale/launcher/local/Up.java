package io.flashsale.launcher.local;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.Http;
import io.flashsale.launcher.WorkerDeployment;
import io.flashsale.launcher.redis.RedisMode;
import io.flashsale.launcher.temporal.TemporalMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/flashsale up}: Temporal, with {@code --observe} Prometheus and Jaeger, then a worker and
 * the api, each detached in the run folder ({@link RunFolder}). Every port is checked before
 * anything starts, so a taken one leaves nothing half-started.
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
    private LocalTemporal local;
    private Observability observability;

    @Override
    public Integer call() throws Exception {
        return LocalCommands.refusable(() -> {
            config = LocalCommands.config();
            run = config.run();
            local = new LocalTemporal(config);
            observability = new Observability(config);
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
        local.check();
        if (run.pid(Component.WORKER).isEmpty()) {
            Ports.refuseTaken(config.workerPort(), "the worker", "WORKER_PORT");
        }
        if (run.pid(Component.API).isEmpty()) {
            Ports.refuseTaken(config.apiPort(), "the api", "API_PORT");
        }
        if (observe) {
            observability.check(local.starts());
        }
        if (temporal == TemporalMode.cluster) {
            local.startCluster();
        } else {
            local.startDevServer(observe);
        }
        if (observe) {
            observability.startPrometheus(local.metricsTargets());
            observability.startJaeger();
        }
        refuseAnUnversionedWorkerWhereABuildIsCurrent(workerBuild);
        startApp(
                config,
                Component.WORKER,
                config.workerPort(),
                workerBuild == null ? List.of() : List.of(Component.buildArgument(workerBuild)));
        startApp(config, Component.API, config.apiPort(), List.of());
        System.out.println("waiting for health (up to " + config.healthTimeout().toSeconds() + "s) ...");
        if (!healthy(config, Component.WORKER, config.workerPort())
                || !healthy(config, Component.API, config.apiPort())) {
            throw new Refused("startup failed; 'bin/flashsale down' stops what is still running");
        }
        if (workerBuild != null) {
            try (WorkerDeployment deployment = WorkerCommand.deployment(config)) {
                deployment.makeCurrent(workerBuild, WorkerCommand.ROUTABLE_WITHIN);
            }
            System.out.println("worker build " + workerBuild + " is current ('bin/flashsale worker status')");
        }
        banner(sentinel);
    }

    /**
     * Temporal keeps its routing across runs (the dev server in {@code .run/temporal.db}): with a
     * build current, new purchases go to that build only, and an unversioned worker would get none.
     */
    private void refuseAnUnversionedWorkerWhereABuildIsCurrent(String workerBuild) {
        if (workerBuild != null || run.pid(Component.WORKER).isPresent()) {
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

    /** Starts {@code app} (the api, the worker or a worker of another build) detached, with {@code arguments}. */
    static void startApp(LocalConfig config, Component app, int port, List<String> arguments) throws IOException {
        if (config.run().alreadyRunning(app)) {
            return;
        }
        FlashSaleStack.App module = app.app();
        List<String> jar = new ArrayList<>(List.of(
                "-jar",
                FlashSaleStack.built(config.root(), module.module(), "exec").toString()));
        jar.addAll(arguments);
        config.run()
                .start(
                        app,
                        module.command(app.process(), config.backEndNice(), config.jvmFlags(), jar),
                        module.environment(config.environment(), port));
    }

    /** Whether {@code app} reported UP on {@code port} before the health timeout (its log's tail on stderr if not). */
    static boolean healthy(LocalConfig config, Component app, int port) throws InterruptedException {
        return config.run().await(app, config.healthTimeout(), () -> Http.healthy(port));
    }

    private void banner(boolean sentinel) {
        String api = "http://127.0.0.1:" + config.apiPort();
        String worker = "http://127.0.0.1:" + config.workerPort();
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
                "  Web UI          " + local.webUi(),
                "  logs            " + run.shown(run.path().resolve("logs"))
                        + "/   (bin/flashsale logs [api|worker|temporal] [-f])",
                "  token           bin/flashsale token --user alice   (--admin: sale admin; --scope payments: payment service)",
                "  stop            bin/flashsale down"));
        if (sentinel) {
            lines.add("  Redis           master " + config.environment().get("REDIS_SENTINEL_MASTER") + " through the"
                    + " Sentinels " + config.environment().get("REDIS_SENTINEL_NODES") + "; a 202 waits for "
                    + config.environment().getOrDefault("FLASHSALE_REDIS_REPLICATION_REPLICAS", "0") + " replica(s)");
        }
        if (observe) {
            lines.addAll(observability.banner());
        }
        lines.forEach(System.out::println);
    }
}
