package io.flashsale.stores.testing;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.MySQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * MySQL 8.4 and redis:7 in containers, started lazily and shared by the JVM (Testcontainers' Ryuk
 * removes them). Only this class touches Testcontainers, so modules without it work as long as the
 * configured servers are reachable.
 */
final class ContainerStores {

    private static MySQLContainer<?> mysql;
    private static GenericContainer<?> redis;
    private static final ContainerStores INSTANCE = new ContainerStores();

    private ContainerStores() {}

    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    static ContainerStores instance() {
        return INSTANCE;
    }

    synchronized TestStores.MySqlServer mysql() {
        if (mysql == null) {
            mysql = new MySQLContainer<>(DockerImageName.parse("mysql:8.4")).withUsername("root");
            mysql.start();
        }
        String server = "jdbc:mysql://" + mysql.getHost() + ":" + mysql.getMappedPort(3306);
        return new TestStores.MySqlServer(server, "root", mysql.getPassword());
    }

    synchronized String redisUrl() {
        if (redis == null) {
            redis = new GenericContainer<>(DockerImageName.parse("redis:7")).withExposedPorts(6379);
            redis.start();
        }
        return "redis://" + redis.getHost() + ":" + redis.getMappedPort(6379);
    }
}
