package io.flashsale.bench;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.PrivateStores;
import io.flashsale.launcher.redis.RedisCluster;
import io.flashsale.launcher.redis.RedisSentinels;
import io.flashsale.launcher.temporal.DevServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * P5, P6 and P7: one phase's load on two stacks, each started fresh for it (P6: one, against the
 * run's own), so neither is warmer from the phases before; each reports a ratio, not a target.
 */
record Comparisons(Phases main, Path root, Path logs, DevServer.Kind temporal) {

    private static final int ROUNDS = 3;
    private static final int WARMUP = 200;

    /**
     * P5: P1's sold-out load on a Redis Cluster (3 masters with a replica each) against the run's single
     * Redis, in {@value #ROUNDS} alternating rounds, so a machine busy with other work slows both alike.
     */
    Report.Phase p5() throws Exception {
        PrivateStores single = main.stores();
        try (RedisCluster cluster = RedisCluster.start(logs.resolve("redis-cluster"));
                Stack one = devServer("p5-single-redis", single, Map.of());
                Stack many = devServer("p5-redis-cluster", single, Map.of("REDIS_CLUSTER_NODES", cluster.nodes()))) {
            Phases onOne = side(one, single, "p5s");
            Phases onMany = side(many, single, "p5c");
            HttpLoad.Source oneBuyers = onOne.soldOut("p5s" + main.run());
            HttpLoad.Source manyBuyers = onMany.soldOut("p5c" + main.run());
            int connections = main.settings().connections;
            onOne.timed(oneBuyers, main.settings().warmup(), connections);
            onMany.timed(manyBuyers, main.settings().warmup(), connections);
            List<Tally> oneRounds = new ArrayList<>();
            List<Tally> manyRounds = new ArrayList<>();
            Duration round = main.settings().duration().dividedBy(ROUNDS);
            for (int i = 0; i < ROUNDS; i++) {
                oneRounds.add(onOne.timed(oneBuyers, round, connections));
                manyRounds.add(onMany.timed(manyBuyers, round, connections));
            }
            Tally onSingle = Tally.of(oneRounds);
            Tally onCluster = Tally.of(manyRounds);
            return new Report.Phase(
                            "P5",
                            "sold-out purchase on a Redis Cluster (3 masters) vs a single Redis, "
                                    + main.settings().connections + " connections")
                    .measure("single Redis", onSingle, null)
                    .measure("Redis Cluster", onCluster, null)
                    .ratio(onCluster.throughput() / onSingle.throughput())
                    .fact("single Redis outcomes", onSingle.counts())
                    .fact("Redis Cluster outcomes", onCluster.counts())
                    .fact("cluster nodes", cluster.nodes());
        }
    }

    /** P6: P3's settle rate on the production-like Temporal cluster against the run's dev server, with CPU per purchase. */
    Report.Phase p6() throws Exception {
        int n = main.settings().settleWorkflows;
        // stores of its own: on the run's, this stack's relay would start the dev server's admissions
        PrivateStores own = PrivateStores.fresh();
        FlashSaleStack.Builder cluster =
                FlashSaleStack.builder(root, logs.resolve("p6-cluster")).cluster("bench_" + main.run());
        try (Stack stack = Stack.start(cluster, own, Map.of())) {
            Phases onCluster = Phases.on(stack, own, main.settings(), main.run());
            main.settle("p6dw", Math.min(WARMUP, n));
            onCluster.settle("p6cw", Math.min(WARMUP, n));
            Phases.Settled dev = main.settle("p6d", n);
            Phases.Settled clustered = onCluster.settle("p6c", n);
            return new Report.Phase(
                            "P6", "settle rate on the Temporal cluster (PostgreSQL, 2 history hosts) vs the dev server")
                    .value("dev server settle rate (/s)", dev.rate())
                    .value("cluster settle rate (/s)", clustered.rate())
                    .value("purchases", n)
                    .ratio(clustered.rate() / dev.rate())
                    .fact("dev server CPU ms per settled purchase", dev.cpuPerWinner())
                    .fact("cluster CPU ms per settled purchase", clustered.cpuPerWinner())
                    .fact("cluster", stack.temporal().toString());
        } finally {
            own.drop();
        }
    }

    /**
     * P7: what it costs that a 202 waits until a replica has the admission: P4's sale on a master, a
     * replica and three Sentinels, by an api answering on the master's word and one waiting for the
     * replica; the ratio is the winners' p99 with the wait over without.
     */
    Report.Phase p7() throws Exception {
        try (RedisSentinels redis = RedisSentinels.start(root, logs.resolve("redis-sentinels"), Duration.ZERO);
                Stack masterOnly = devServer("p7-master-only", main.stores(), redis.environment(0));
                Stack replicated = devServer("p7-replica", main.stores(), redis.environment(1))) {
            Report.Phase off = sell(side(masterOnly, main.stores(), "p7m"));
            Report.Phase on = sell(side(replicated, main.stores(), "p7r"));
            Report.Phase phase = new Report.Phase(
                            "P7",
                            "P4's sale on master + replica + Sentinels: 202 on the master's word vs once the replica has it")
                    .ratio(on.latencies.get("winners").p99Ms()
                            / off.latencies.get("winners").p99Ms());
            for (String group : List.of("winners", "losers")) {
                phase.latencies.put(group + ", master only", off.latencies.get(group));
                phase.latencies.put(group + ", replica acknowledged", on.latencies.get(group));
            }
            return phase.value(
                            "api CPU per admitted purchase, master only (ms)",
                            off.values.get(API_CPU).doubleValue())
                    .value(
                            "api CPU per admitted purchase, replica acknowledged (ms)",
                            on.values.get(API_CPU).doubleValue())
                    .fact("outcomes, master only", off.facts.get("outcomes"))
                    .fact("outcomes, replica acknowledged", on.facts.get("outcomes"));
        }
    }

    private static final String API_CPU = "api CPU per admitted purchase (ms)";

    /** P4 on {@code side}, with the api's CPU per admitted purchase as {@link #API_CPU}. */
    private static Report.Phase sell(Phases side) throws Exception {
        Map<String, Duration> before = side.cpu().read();
        Report.Phase phase = new OpenLoopPhase(side).run();
        long admitted = phase.values.get("admitted").longValue();
        return phase.value(API_CPU, side.cpu().millisPer(before, admitted).getOrDefault("api", 0.0));
    }

    private Stack devServer(String name, PrivateStores stores, Map<String, String> environment) throws Exception {
        FlashSaleStack.Builder builder = FlashSaleStack.builder(root, logs.resolve(name))
                .devServer(temporal)
                .backEndNice(FlashSaleStack.BACK_END_NICE);
        return Stack.start(builder, stores, environment);
    }

    private Phases side(Stack stack, PrivateStores stores, String tag) {
        return Phases.on(stack, stores, main.settings(), tag + main.run());
    }
}
