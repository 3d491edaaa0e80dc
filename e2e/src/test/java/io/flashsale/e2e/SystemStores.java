package io.flashsale.e2e;

import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.admission.AdmissionGate;
import io.flashsale.stores.admission.AdmissionStream;
import io.flashsale.stores.admission.RelaySales;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;

/**
 * The system's Redis as the test reaches it behind the processes' backs: on the same server and key
 * prefix, with the same admission gate and stream classes the api and the relay use. Only ever
 * touches keys under the system's prefix (never FLUSHDB on the shared Redis).
 */
final class SystemStores implements AutoCloseable {

    private final LettuceConnectionFactory connections;
    private final StringRedisTemplate redis;
    private final RedisKeyProperties keys;

    SystemStores(Map<String, String> environment) {
        URI url = URI.create(environment.get("REDIS_URL"));
        RedisStandaloneConfiguration server =
                new RedisStandaloneConfiguration(url.getHost(), url.getPort() < 0 ? 6379 : url.getPort());
        String path = url.getPath() == null ? "" : url.getPath().replace("/", "");
        if (!path.isEmpty()) {
            server.setDatabase(Integer.parseInt(path));
        }
        this.connections = new LettuceConnectionFactory(server);
        connections.afterPropertiesSet();
        connections.start();
        this.redis = new StringRedisTemplate(connections);
        this.keys = new RedisKeyProperties(environment.get("FLASHSALE_REDIS_PREFIX"));
    }

    /** The admission Lua the api runs, without the workflow start that follows it there. */
    AdmissionGate gate() {
        return new AdmissionGate(redis, keys, script("admit"));
    }

    /** The relay's view of the streams, to play a relay consumer that reads and dies. */
    AdmissionStream stream() {
        return new AdmissionStream(redis, keys, script("claim"), script("ack_delete", Long.class), script("backlog"));
    }

    /** Hides the sale (one without end) from every relay (they walk the relay's sales) or shows it again. */
    void relayed(String saleId, boolean visible) {
        if (visible) {
            new RelaySales(redis, keys).add(saleId, null);
        } else {
            new RelaySales(redis, keys).forget(saleId);
        }
    }

    /** Length of the sale's admission stream: admissions whose workflow start nobody confirmed yet. */
    long admissions(String saleId) {
        Long length = redis.opsForStream().size(keys.sale(saleId).admissions());
        return length == null ? 0 : length;
    }

    /** Redis loses the sale: every key of it (stock, buyers, holds, admissions, meta) is deleted. */
    long loseSale(String saleId) {
        Long deleted = redis.delete(keys.sale(saleId).all());
        return deleted == null ? 0 : deleted;
    }

    private static DefaultRedisScript<List> script(String name) {
        return script(name, List.class);
    }

    private static <T> DefaultRedisScript<T> script(String name, Class<T> resultType) {
        DefaultRedisScript<T> script = new DefaultRedisScript<>();
        script.setLocation(new ClassPathResource("lua/" + name + ".lua"));
        script.setResultType(resultType);
        return script;
    }

    @Override
    public void close() {
        connections.destroy();
    }
}
