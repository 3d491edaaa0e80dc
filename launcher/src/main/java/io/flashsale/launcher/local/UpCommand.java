package io.flashsale.launcher.local;

import io.flashsale.launcher.redis.RedisMode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "up",
        mixinStandardHelpOptions = true,
        description = {
            "Start the Temporal dev server (or, with --temporal cluster, the production-like cluster on PostgreSQL)"
                    + " unless TEMPORAL_ADDRESS names a running Temporal, then one worker and the api; wait until both"
                    + " report UP and print the URLs. bin/flashsale first makes sure MariaDB and Redis run and the"
                    + " jars are built."
        })
final class UpCommand implements Callable<Integer> {

    enum Temporal {
        dev,
        cluster
    }

    @Option(names = "--temporal", defaultValue = "dev", description = "dev or cluster (default: ${DEFAULT-VALUE})")
    Temporal temporal;

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

    @Override
    public Integer call() throws Exception {
        return LocalCommands.refusable(() -> {
            new Up(LocalCommands.config())
                    .run(temporal == Temporal.cluster, observe, redis == RedisMode.sentinel, workerBuild);
            return 0;
        });
    }
}
