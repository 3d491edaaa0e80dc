package io.flashsale.launcher.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A test's own Redis survives a SIGKILL on its files, and is never started twice on one port. */
class RedisServerIT {

    @Test
    void refusesARestartWhileItRunsAndStartsAgainAfterAKill() throws Exception {
        try (RedisServer server = RedisServer.start(Path.of("target", "redis-server-it"), "always")) {
            long first = server.node().pid();

            assertThatThrownBy(server::restart).hasMessageContaining("still runs");
            assertThat(server.node().pid()).isEqualTo(first);

            server.node().kill();
            server.restart();
            assertThat(server.node().pid()).isNotEqualTo(first);
            assertThat(ProcessHandle.of(server.node().pid()))
                    .hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());
        }
    }
}
