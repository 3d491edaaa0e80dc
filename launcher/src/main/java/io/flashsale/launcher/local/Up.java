package io.flashsale.launcher.local;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.Http;
import io.flashsale.launcher.Processes;
import io.flashsale.launcher.WorkerDeployment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code bin/flashsale up}: Temporal (one already running, the dev server or the cluster), with
 * {@code --observe} Prometheus and Jaeger, then one worker and the api, each detached with its pid
 * and log in the run folder; waits until both report UP and prints where everything is. Every port
 * is checked before anything starts, so a taken one leaves nothing half-started.
 */
final class Up {

    private final LocalConfig config;
    private final RunFolder run;
    private final LocalTemporal temporal;
    private final Observability observability;

    Up(LocalConfig config) {
        this.config = config;
        this.run = config.run();
        this.temporal = new LocalTemporal(config);
        this.observability = new Observability(config);
    }

    /** {@code workerBuild}: the worker's build id, made current once it polls; null: an unversioned worker. */
    void run(boolean cluster, boolean observe, boolean sentinel, String workerBuild) throws Exception {
        if (sentinel && !config.environment().containsKey("REDIS_SENTINEL_NODES")) {
            throw new Refused(
                    "--redis sentinel: REDIS_SENTINEL_NODES names no Sentinels (bin/flashsale up starts them)");
        }
        if (workerBuild != null) {
            WorkerCommand.valid(workerBuild);
        }
        temporal.check();
        checkAppPort(Component.WORKER, config.workerPort(), "WORKER_PORT");
        checkAppPort(Component.API, config.apiPort(), "API_PORT");
        if (observe) {
            observability.check(temporal.starts());
        }
        if (cluster) {
            temporal.startCluster();
        } else {
            temporal.startDevServer(observe);
        }
        if (observe) {
            observability.startPrometheus(temporal.metricsTargets());
            observability.startJaeger();
        }
        refuseAnUnversionedWorkerWhereABuildIsCurrent(workerBuild);
        startApp(
                Component.WORKER,
                config.workerPort(),
                config.backEnd(),
                workerBuild == null ? List.of() : List.of(Component.buildArgument(workerBuild)));
        startApp(Component.API, config.apiPort(), List.of(), List.of());
        System.out.println("waiting for health (up to " + config.healthTimeout().toSeconds() + "s) ...");
        if (!healthy(Component.WORKER, config.workerPort()) || !healthy(Component.API, config.apiPort())) {
            throw new Refused("startup failed; 'bin/flashsale down' stops what is still running");
        }
        if (workerBuild != null) {
            try (WorkerDeployment deployment = WorkerCommand.deployment(config)) {
                deployment.makeCurrent(workerBuild, WorkerCommand.ROUTABLE_WITHIN);
            }
            System.out.println("worker build " + workerBuild + " is current ('bin/flashsale worker status')");
        }
        banner(observe, sentinel);
    }

    private void checkAppPort(Component app, int port, String variable) {
        if (run.pid(app).isEmpty() && Ports.listening("127.0.0.1", port)) {
            throw new Refused("port " + port + " is taken; set " + variable + " to a free port");
        }
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
    void startApp(Component app, int port, List<String> launcher, List<String> arguments) throws IOException {
        Optional<Long> running = run.pid(app);
        if (running.isPresent()) {
            System.out.println(app.process() + ": already running (pid " + running.get() + ")");
            return;
        }
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of("env", "SERVER_PORT=" + port, Processes.java(), app.marker()));
        command.addAll(
                app.equals(Component.API) ? FlashSaleStack.withApiCollector(config.jvmFlags()) : config.jvmFlags());
        command.addAll(List.of(
                "-jar",
                FlashSaleStack.built(config.root(), app.module(), "exec").toString(),
                "--server.port=" + port));
        command.addAll(arguments);
        run.start(app, command, config.environment());
    }

    /** Whether {@code app} reported UP on {@code port} before the health timeout (its log's tail on stderr if not). */
    boolean healthy(Component app, int port) throws InterruptedException {
        String health = "http://127.0.0.1:" + port + "/actuator/health";
        return run.await(app, config.healthTimeout(), () -> Http.ok(health, Processes.HEALTHY));
    }

    private void banner(boolean observe, boolean sentinel) {
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
                "  Web UI          " + temporal.webUi(),
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
