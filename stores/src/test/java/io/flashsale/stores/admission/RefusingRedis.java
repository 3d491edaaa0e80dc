package io.flashsale.stores.admission;

import io.lettuce.core.api.async.RedisAclAsyncCommands;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The same Redis as a user refused one command (a Redis ACL user), to make a step fail half way as
 * a cut connection would: what ran before the refused command stays done.
 */
final class RefusingRedis implements AutoCloseable {

    private final StringRedisTemplate admin;
    private final String user;
    private final LettuceConnectionFactory connections;

    private RefusingRedis(StringRedisTemplate admin, String user, LettuceConnectionFactory connections) {
        this.admin = admin;
        this.user = user;
        this.connections = connections;
    }

    static RefusingRedis without(StringRedisTemplate admin, String command) {
        String user = "flashsale-test-no-" + command + "-" + System.nanoTime();
        acl(admin, "SETUSER", user, "on", ">refused", "~*", "&*", "+@all", "-" + command);
        var server = (RedisStandaloneConfiguration)
                ((LettuceConnectionFactory) admin.getConnectionFactory()).getStandaloneConfiguration();
        var config = new RedisStandaloneConfiguration(server.getHostName(), server.getPort());
        config.setDatabase(server.getDatabase());
        config.setUsername(user);
        config.setPassword("refused");
        var connections = new LettuceConnectionFactory(config);
        connections.afterPropertiesSet();
        connections.start();
        return new RefusingRedis(admin, user, connections);
    }

    /** A template connected as this user. */
    StringRedisTemplate template() {
        return new StringRedisTemplate(connections);
    }

    @Override
    public void close() {
        connections.destroy();
        admin.execute((RedisCallback<Long>) c -> deleteUser(c.getNativeConnection()));
    }

    private Long deleteUser(Object lettuce) {
        try {
            return ((RedisAclAsyncCommands<?, ?>) lettuce).aclDeluser(user).get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("cannot delete Redis user " + user, e);
        }
    }

    /** An ACL subcommand answered with a status (OK). */
    private static void acl(StringRedisTemplate admin, String... args) {
        byte[][] bytes = List.of(args).stream().map(String::getBytes).toArray(byte[][]::new);
        admin.execute((RedisCallback<Object>) c -> c.execute("ACL", bytes));
    }
}
