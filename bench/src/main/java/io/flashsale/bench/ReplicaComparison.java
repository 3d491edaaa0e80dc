package io.flashsale.bench;

import io.flashsale.launcher.PrivateStores;
import io.flashsale.launcher.redis.RedisSentinels;
import io.flashsale.launcher.temporal.DevServer;
import io.flashsale.testkit.ApiClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * P7: what it costs that a 202 waits until a replica has the admission. P4's open-loop sale on the
 * production Redis topology for one master (a master, a replica and three Sentinels on loopback,
 * {@link RedisSentinels}), once by a stack that answers on the master's word and once by one that
 * waits for the replica ({@code FLASHSALE_REDIS_REPLICATION_REPLICAS} 0 and 1), side by side on the
 * run's MySQL schema: winners' and losers' latency and the api's CPU per admitted purchase, each
 * way. The ratio is the winners' p99 with the wait over without. A comparison, not a target.
 */
final class ReplicaComparison {

    private ReplicaComparison() {}

    static Report.Phase run(Path root, Path logs, PrivateStores stores, Settings settings, DevServer.Kind temporal)
            throws Exception {
        String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        try (RedisSentinels redis = RedisSentinels.start(root, logs.resolve("redis-sentinels"), Duration.ZERO);
                Stack masterOnly =
                        Stack.start(root, logs.resolve("p7-master-only"), stores, temporal, sentinel(redis, 0));
                Stack replicated =
                        Stack.start(root, logs.resolve("p7-replica"), stores, temporal, sentinel(redis, 1))) {
            Sale off = sell(masterOnly, stores, settings, "p7m" + run);
            Sale on = sell(replicated, stores, settings, "p7r" + run);
            Report.Phase phase = new Report.Phase(
                            "P7",
                            "P4's sale on master + replica + Sentinels: 202 on the master's word vs once the replica has it")
                    .ratio(on.winners().p99Ms() / off.winners().p99Ms());
            phase.latencies.put("winners, master only", off.winners());
            phase.latencies.put("winners, replica acknowledged", on.winners());
            phase.latencies.put("losers, master only", off.losers());
            phase.latencies.put("losers, replica acknowledged", on.losers());
            return phase.value("api CPU per admitted purchase, master only (ms)", off.apiCpuMillis())
                    .value("api CPU per admitted purchase, replica acknowledged (ms)", on.apiCpuMillis())
                    .fact("outcomes, master only", off.phase().facts.get("outcomes"))
                    .fact("outcomes, replica acknowledged", on.phase().facts.get("outcomes"));
        }
    }

    private record Sale(Report.Phase phase, double apiCpuMillis) {
        Report.Latency winners() {
            return phase.latencies.get("winners");
        }

        Report.Latency losers() {
            return phase.latencies.get("losers");
        }
    }

    private static Sale sell(Stack stack, PrivateStores stores, Settings settings, String run) throws Exception {
        Admin admin = new Admin(new ApiClient(stack.api()), stack.tokens());
        CpuMeter cpu = CpuMeter.of(stack);
        Map<String, Duration> before = cpu.read();
        Report.Phase phase = new OpenLoopPhase(settings, stores, admin, stack.tokens(), run).run();
        long admitted = phase.values.get("admitted").longValue();
        return new Sale(phase, cpu.millisPer(before, Math.max(1, admitted)).getOrDefault("api", 0.0));
    }

    private static Map<String, String> sentinel(RedisSentinels redis, int replicas) {
        return Map.of(
                "REDIS_SENTINEL_MASTER", RedisSentinels.MASTER_NAME,
                "REDIS_SENTINEL_NODES", redis.sentinelNodes(),
                "FLASHSALE_REDIS_REPLICATION_REPLICAS", Integer.toString(replicas));
    }
}
