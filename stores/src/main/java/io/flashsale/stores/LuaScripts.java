package io.flashsale.stores;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The one way a Lua script of {@code lua/} becomes a {@link RedisScript}: its text, read once (a
 * script built from a resource location would re-check the file on every call), run by EVALSHA and
 * by EVAL once after a Redis restart or failover. {@link StoreConfiguration} and the audit's
 * configuration make their beans with it; so does anything else that runs a script on the stores'
 * Redis.
 *
 * <p>Every script starts with the shebang {@code #!lua} (Redis 7): on a Redis Cluster, Redis
 * then refuses a script that touches any key outside the slot of the keys it was given, even one
 * that happens to live on the same node. A script may use only the keys of one sale, passed in
 * KEYS, all under the sale's hash tag.
 */
public final class LuaScripts {

    static final String SHEBANG = "#!lua\n";

    private LuaScripts() {}

    /** {@code lua/<name>.lua} as it stands, after the shebang. */
    public static <T> RedisScript<T> load(String name, Class<T> resultType) {
        return RedisScript.of(SHEBANG + text(name), resultType);
    }

    /** rate_limit.lua and admit.lua as local functions, then limited_admit.lua calling both: one EVALSHA. */
    public static RedisScript<List> limitedAdmit() {
        return RedisScript.of(SHEBANG + function("rate_limit") + function("admit") + text("limited_admit"), List.class);
    }

    private static String function(String name) {
        return "local function " + name + "(KEYS, ARGV)\n" + text(name) + "\nend\n";
    }

    private static String text(String name) {
        try {
            return new ClassPathResource("lua/" + name + ".lua").getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read lua/" + name + ".lua", e);
        }
    }
}
