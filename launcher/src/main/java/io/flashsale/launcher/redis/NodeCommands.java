package io.flashsale.launcher.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.function.Function;

/** Commands to one node at a time (its own connection, closed after the call; 2 s timeout). */
final class NodeCommands implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final RedisClient client = RedisClient.create();

    <T> T on(RedisNode node, Function<RedisCommands<String, String>, T> call) {
        RedisURI uri = RedisURI.builder()
                .withHost("127.0.0.1")
                .withPort(node.port())
                .withTimeout(TIMEOUT)
                .build();
        try (StatefulRedisConnection<String, String> connection = client.connect(uri)) {
            return call.apply(connection.sync());
        }
    }

    /** The value of {@code field} in the node's {@code INFO section}, "" when absent. */
    String info(RedisNode node, String section, String field) {
        return on(node, c -> c.info(section))
                .lines()
                .filter(line -> line.startsWith(field + ":"))
                .map(line -> line.substring(field.length() + 1).trim())
                .findFirst()
                .orElse("");
    }

    @Override
    public void close() {
        client.shutdown();
    }
}
