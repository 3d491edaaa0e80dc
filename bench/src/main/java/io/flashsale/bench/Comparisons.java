package io.flashsale.bench;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.PrivateStores;
import io.flashsale.launcher.redis.RedisCluster;
import io.flashsale.launcher.redis.RedisSentinels;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** P5, P6 and P7: a load on two stacks started fresh for it (P6: one, against the run's); a ratio, no target. */
record Comparisons(Phases main, Path root, Path logs) {

    private static final int ROUNDS = 3;

    /** P5: P1's load on a Redis Cluster against a single Redis, in alternating rounds that a busy box slows alike. */
    Report.Phase p5() throws Exception {
        Settings settings = main.settings();
        try (RedisCluster cluster = RedisCluster.start(logs.resolve("redis-cluster"));
                Phases one = fresh("p5-single-redis", Map.of(), "p5s");
                Phases many = fresh("p5-redis-cluster", Map.of("REDIS_CLUSTER_NODES", cluster.nodes()), "p5c")) {
            HttpLoad.Source oneBuyers = one.soldOut(one.run());
            HttpLoad.Source manyBuyers = many.soldOut(many.run());
            one.timed(oneBuyers, settings.warmup(), settings.connections);
            many.timed(manyBuyers, settings.warmup(), settings.connections);
            List<Tally> onOne = new ArrayList<>(), onMany = new ArrayList<>();
            for (int i = 0; i < ROUNDS; i++) {
                onOne.add(one.timed(oneBuyers, settings.duration().dividedBy(ROUNDS), settings.connections));
                onMany.add(many.timed(manyBuyers, settings.duration().dividedBy(ROUNDS), settings.connections));
            }
            Tally onSingle = Tally.of(onOne);
            Tally onCluster = Tally.of(onMany);
            return new Report.Phase("P5", "sold-out purchase on a Redis Cluster (3 masters) vs a single Redis")
                    .measure("single Redis", onSingle, settings.connections)
                    .measure("Redis Cluster", onCluster, settings.connections)
                    .ratio(onCluster.throughput() / onSingle.throughput())
                    .fact("single Redis outcomes", onSingle.counts())
                    .fact("Redis Cluster outcomes", onCluster.counts());
        }
    }

    /** P6: P3's settle rate on the production-like Temporal cluster against the run's dev server, with CPU per purchase. */
    Report.Phase p6() throws Exception {
        int n = main.settings().settleWorkflows;
        int warmup = Math.min(200, n);
        // stores of its own: on the run's, this stack's relay would start the dev server's admissions
        PrivateStores own = PrivateStores.fresh();
        FlashSaleStack.Builder cluster =
                FlashSaleStack.builder(root, logs.resolve("p6-cluster")).cluster("bench_" + main.run());
        try (Phases onCluster = Phases.on(Stack.start(cluster, own, Map.of()), own, main.settings(), main.run())) {
            main.settle("p6dw", warmup);
            onCluster.settle("p6cw", warmup);
            Phases.Settled dev = main.settle("p6d", n);
            Phases.Settled clustered = onCluster.settle("p6c", n);
            return new Report.Phase(
                            "P6", "settle rate on the Temporal cluster (PostgreSQL, 2 history hosts) vs the dev server")
                    .value("dev server settle rate (/s)", dev.rate())
                    .value("cluster settle rate (/s)", clustered.rate())
                    .value("purchases", n)
                    .ratio(clustered.rate() / dev.rate())
                    .fact("dev server CPU ms per settled purchase", dev.cpuPerWinner())
                    .fact("cluster CPU ms per settled purchase", clustered.cpuPerWinner());
        } finally {
            own.drop();
        }
    }

    /** P7: P4's sale on master, replica and Sentinels; winners' p99 when a 202 waits for the replica over not. */
    Report.Phase p7() throws Exception {
        try (RedisSentinels redis = RedisSentinels.start(root, logs.resolve("redis-sentinels"), Duration.ZERO);
                Phases masterOnly = fresh("p7-master-only", redis.environment(0), "p7m");
                Phases replicated = fresh("p7-replica", redis.environment(1), "p7r")) {
            Report.Phase phase = new Report.Phase(
                    "P7",
                    "P4's sale on master + replica + Sentinels: 202 on the master's word vs once the replica has it");
            double off = sell(phase, masterOnly, "master only");
            return phase.ratio(sell(phase, replicated, "replica acknowledged") / off);
        }
    }

    /** P4's sale on {@code side} into {@code phase}, with the api's CPU per admitted purchase; its winners' p99. */
    private static double sell(Report.Phase phase, Phases side, String name) throws Exception {
        Map<String, Duration> before = side.cpu().read();
        Tally tally = SalePhases.sell(side).tally();
        Map<String, Double> cpu = side.cpu().millisPer(before, tally.count("admitted"));
        phase.latency("winners, " + name, tally, null, "admitted")
                .latency("losers, " + name, tally, null, Tally.LOSERS)
                .value("api CPU per admitted purchase, " + name + " (ms)", cpu.getOrDefault("api", 0.0))
                .fact("outcomes, " + name, tally.counts());
        return tally.millis(99, "admitted");
    }

    /** A stack of its own on the dev server and the run's stores, given {@code environment}, its sale ids tagged. */
    private Phases fresh(String name, Map<String, String> environment, String tag) throws Exception {
        PrivateStores stores = main.stores();
        var builder = FlashSaleStack.builder(root, logs.resolve(name)).backEndNice(FlashSaleStack.BACK_END_NICE);
        return Phases.on(Stack.start(builder, stores, environment), stores, main.settings(), tag + main.run());
    }
}
