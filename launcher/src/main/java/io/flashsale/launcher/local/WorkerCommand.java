package io.flashsale.launcher.local;

import io.flashsale.launcher.Await;
import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.WorkerDeployment;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bin/flashsale worker}: a new worker build rolled out during a sale by Worker Versioning. */
@Command(
        name = "worker",
        description = "Roll out a worker build during a sale (Worker Versioning, docs/workflow-changes.md).")
final class WorkerCommand {

    /** How long a routing change waits for the build's workers to poll. */
    static final Duration ROUTABLE_WITHIN = Duration.ofSeconds(60);

    /** {@code build}, refused unless a build id that fits a file name and a visibility query. */
    static String valid(String build) {
        if (!build.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
            throw new IllegalStateException("not a build id (letters, digits, '.', '_', '-'; at most 64): " + build);
        }
        return build;
    }

    private interface Step {
        void run(LocalConfig config, WorkerDeployment deployment) throws Exception;
    }

    /** {@code step} with the worker's deployment in {@code up}'s Temporal; a refusal exits 1. */
    private static int withDeployment(Step step) throws Exception {
        return LocalCommands.refusable(() -> {
            LocalConfig config = LocalCommands.config();
            try (WorkerDeployment deployment = deployment(config)) {
                step.run(config, deployment);
            }
            return 0;
        });
    }

    static WorkerDeployment deployment(LocalConfig config) {
        return new WorkerDeployment(
                config.temporalAddress(),
                config.namespace(),
                config.environment().getOrDefault("FLASHSALE_WORKER_DEPLOYMENT", WorkerDeployment.NAME));
    }

    @Command(
            name = "start",
            description = "Start a worker of build BUILD beside the running one, on the first free port above"
                    + " WORKER_PORT; no purchase goes to it until 'ramp' or 'current'.")
    int start(
            @Parameters(paramLabel = "BUILD", description = "Its build id, e.g. the commit it was built from.")
                    String build)
            throws Exception {
        return LocalCommands.refusable(() -> {
            LocalConfig config = LocalCommands.config();
            String worker = RunFolder.workerOfBuild(valid(build));
            if (config.run().pid(worker).isPresent()) {
                throw new IllegalStateException("worker of build " + build + " is already running");
            }
            int port = config.integer("WORKER_PORT") + 1;
            while (Await.listening("127.0.0.1", port)) {
                port++;
            }
            Up.startApp(config, worker, port, List.of(RunFolder.buildArgument(build)));
            FlashSaleStack.awaitHealthy(config.run(), worker, port, config.healthTimeout());
            System.out.println("build " + build + " polls; route purchases to it with 'bin/flashsale worker ramp "
                    + build + " 10' or 'worker current " + build + "'");
            return 0;
        });
    }

    @Command(name = "ramp", description = "Send PERCENT of the purchases started from now on to build BUILD.")
    int ramp(
            @Parameters(index = "0", paramLabel = "BUILD") String build,
            @Parameters(index = "1", paramLabel = "PERCENT", description = "0 to 100.") float percent)
            throws Exception {
        return withDeployment((config, deployment) -> {
            if (percent < 0 || percent > 100) {
                throw new IllegalStateException("ramp: PERCENT is 0 to 100, not " + percent);
            }
            deployment.ramp(valid(build), percent, ROUTABLE_WITHIN);
            System.out.println(percent + " % of new purchases go to build " + build);
        });
    }

    @Command(name = "current", description = "Make build BUILD current: every purchase started from now on runs on it.")
    int current(@Parameters(paramLabel = "BUILD") String build) throws Exception {
        return withDeployment((config, deployment) -> {
            deployment.makeCurrent(valid(build), ROUTABLE_WITHIN);
            System.out.println("build " + build + " is current");
        });
    }

    @Command(
            name = "status",
            description = "Each build: its routing, the purchases still pinned to it, its local worker.")
    int status() throws Exception {
        return withDeployment((config, deployment) -> {
            List<WorkerDeployment.Build> builds = deployment.builds();
            if (builds.isEmpty()) {
                System.out.println("no versioned worker has polled: purchases run unversioned");
            }
            System.out.printf("%-16s %-16s %8s  %s%n", "BUILD", "ROUTING", "RUNNING", "LOCAL WORKER");
            for (WorkerDeployment.Build build : builds) {
                String local = config.run()
                        .workerOf(build.id())
                        .flatMap(worker -> config.run().pid(worker).map(pid -> worker + " (pid " + pid + ")"))
                        .orElse("-");
                System.out.printf(
                        "%-16s %-16s %8d  %s%n", build.id(), build.routing(), deployment.runningOn(build.id()), local);
            }
        });
    }

    @Command(
            name = "stop",
            description = "Stop the local worker of build BUILD; refused while new purchases go to the build or"
                    + " purchases pinned to it still run, unless --force.")
    int stop(
            @Parameters(paramLabel = "BUILD") String build,
            @Option(names = "--force", description = "Stop it even though purchases go to it or still run on it.")
                    boolean force)
            throws Exception {
        return withDeployment((config, deployment) -> {
            Optional<WorkerDeployment.Build> routed = deployment.builds().stream()
                    .filter(known -> known.id().equals(valid(build)) && known.routed())
                    .findFirst();
            if (routed.isPresent() && !force) {
                throw new IllegalStateException(
                        "stop: build " + build + " is " + routed.get().routing()
                                + "; make another build current first ('bin/flashsale worker current B'), or --force");
            }
            long running = deployment.runningOn(build);
            if (running > 0 && !force) {
                throw new IllegalStateException("stop: " + running + " purchase(s) pinned to build " + build
                        + " still run; stop it once 'bin/flashsale worker status' shows 0, or --force");
            }
            config.run()
                    .stop(config.run()
                            .workerOf(build)
                            .orElseThrow(() ->
                                    new IllegalStateException("stop: no local worker of build " + build + " runs")));
        });
    }
}
