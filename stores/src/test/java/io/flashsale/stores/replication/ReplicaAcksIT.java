package io.flashsale.stores.replication;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.launcher.redis.RedisSentinels;
import io.flashsale.stores.LuaScripts;
import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.admission.Admission;
import io.flashsale.stores.admission.AdmissionGate;
import io.flashsale.stores.admission.AdmissionOutcome;
import io.flashsale.stores.admission.RelaySales;
import io.flashsale.stores.replication.ReplicaAcks.Ack;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleStock;
import io.flashsale.stores.testing.TestAdmissions;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.stores.testing.TestStores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A master, a replica replicating 300 ms late and three sentinels on loopback; admissions made
 * through Sentinel, and then the master's machine lost (SIGKILL, its undelivered replication stream
 * and its disk gone) and the replica promoted. What the promoted replica holds is what survived.
 */
class ReplicaAcksIT {

    private static final int BUYERS = 20;
    private static final Duration LATENCY = Duration.ofMillis(300);

    private final List<AutoCloseable> opened = new ArrayList<>();
    private final RedisKeyProperties keys = new RedisKeyProperties("t" + TestStores.random(8));
    private RedisSentinels redis;
    private LettuceConnectionFactory connections;
    private StringRedisTemplate template;

    @AfterEach
    void stop() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    @Test
    void everyAdmissionAReplicaAcknowledgedSurvivesTheLossOfTheMastersMachine() throws Exception {
        start();
        ReplicaAcks acks = acks(Duration.ofSeconds(3));
        Sale sale = loadedSale();

        List<Ack> answered = new ArrayList<>();
        for (int i = 0; i < BUYERS; i++) {
            assertThat(admit(sale, i).outcome()).isEqualTo(AdmissionOutcome.ADMITTED);
            answered.add(acks.await());
        }
        long masterPid = redis.master().pid();
        redis.loseMaster();
        redis.awaitReplicaPromoted(Duration.ofSeconds(30));

        assertThat(ProcessHandle.of(masterPid))
                .as("the master's process is gone")
                .isEmpty();
        assertThat(answered).containsOnly(Ack.REPLICATED);
        assertThat(admissionsOnThePromotedReplica(sale)).isEqualTo(BUYERS);
    }

    @Test
    void withoutTheWaitTheLossOfTheMastersMachineLosesAnsweredAdmissions() throws Exception {
        start();
        Sale sale = loadedSale();

        for (int i = 0; i < BUYERS; i++) {
            assertThat(admit(sale, i).outcome()).isEqualTo(AdmissionOutcome.ADMITTED);
        }
        redis.loseMaster();
        redis.awaitReplicaPromoted(Duration.ofSeconds(30));

        assertThat(admissionsOnThePromotedReplica(sale))
                .as("admissions the master answered but had not replicated")
                .isLessThan(BUYERS);
    }

    @Test
    void aDeadReplicaSlowsOneBatchThenAdmissionsAnswerOnTheMastersWord() throws Exception {
        start();
        Duration timeout = Duration.ofSeconds(1);
        ReplicaAcks acks = acks(timeout);
        Sale sale = loadedSale();
        redis.replica().kill();

        long start = System.nanoTime();
        List<Ack> answered = new ArrayList<>();
        for (int i = 0; i < BUYERS; i++) {
            assertThat(admit(sale, i).outcome()).isEqualTo(AdmissionOutcome.ADMITTED);
            answered.add(acks.await());
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(answered).containsOnly(Ack.MASTER_ONLY);
        // one WAIT a degraded spell (the timeout), not one per buyer (20 s)
        assertThat(took).isLessThan(timeout.multipliedBy(BUYERS / 4));
    }

    private void start() throws Exception {
        redis = RedisSentinels.start(
                Path.of(System.getProperty("flashsale.root", "..")),
                Path.of("target", "redis-sentinels", keys.keyPrefix()),
                LATENCY);
        opened.add(redis);
        connections = factory();
        template = new StringRedisTemplate(connections);
    }

    private LettuceConnectionFactory factory() {
        RedisSentinelConfiguration sentinel = new RedisSentinelConfiguration();
        sentinel.master(RedisSentinels.MASTER_NAME);
        for (String node : redis.sentinelNodes().split(",")) {
            String[] hostPort = node.split(":");
            sentinel.sentinel(hostPort[0], Integer.parseInt(hostPort[1]));
        }
        LettuceConnectionFactory factory = new LettuceConnectionFactory(sentinel);
        factory.afterPropertiesSet();
        factory.start();
        opened.add(factory::destroy);
        return factory;
    }

    private ReplicaAcks acks(Duration timeout) {
        LettuceConnectionFactory own = factory();
        own.setShareNativeConnection(false);
        ReplicaAcks acks = new ReplicaAcks(1, timeout, keys.replicaAck(), own::getConnection, () -> {});
        opened.add(acks);
        return acks;
    }

    private Sale loadedSale() {
        Sale sale = TestSales.open(BUYERS);
        new SaleStock(template, keys, LuaScripts.load("load_sale", Long.class), new RelaySales(template, keys))
                .load(sale);
        return sale;
    }

    private Admission admit(Sale sale, int buyer) {
        AdmissionGate gate = new AdmissionGate(template, keys, LuaScripts.limitedAdmit());
        return TestAdmissions.admit(gate, sale.id(), "buyer-" + buyer, "key");
    }

    private long admissionsOnThePromotedReplica(Sale sale) {
        return redis.on(
                redis.replica().port(), c -> c.sync().xlen(keys.sale(sale.id()).admissions()));
    }
}
