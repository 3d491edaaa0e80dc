package io.flashsale.launcher.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.launcher.FlashSaleStack;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalConfigTest {

    private static final Path ROOT = Path.of("/checkout");

    @Test
    void takesAnEmptyVariableForItsDefaultAsTheShellDid() {
        LocalConfig config = LocalConfig.fromEnvironment(
                ROOT, Map.of("API_PORT", "", "TEMPORAL_ADDRESS", " ", "FLASHSALE_JVM_FLAGS", ""));

        assertThat(config.integer("API_PORT")).isEqualTo(8080);
        assertThat(config.temporalAddress()).isEqualTo("127.0.0.1:7233");
        assertThat(config.given()).doesNotContainKey("TEMPORAL_ADDRESS");
        assertThat(config.jvmFlags()).isEqualTo(FlashSaleStack.JVM_DEFAULTS);
        assertThat(config.environment()).containsEntry("TEMPORAL_ADDRESS", "127.0.0.1:7233");
    }

    @Test
    void passesAnEmptyMysqlPasswordToTheAppsAsNoPassword() {
        LocalConfig config = LocalConfig.fromEnvironment(ROOT, Map.of("MYSQL_USER", "root", "MYSQL_PASSWORD", ""));

        assertThat(config.environment()).containsEntry("MYSQL_PASSWORD", "");
    }

    @Test
    void runsAsDevWithTheDevWebhookKeyOnlyWithoutASecretOfItsOwn() {
        assertThat(LocalConfig.fromEnvironment(ROOT, Map.of()).environment())
                .containsEntry("SPRING_PROFILES_ACTIVE", "dev")
                .containsKey("FLASHSALE_PAYMENT_WEBHOOK_SECRET");
        assertThat(LocalConfig.fromEnvironment(ROOT, Map.of("FLASHSALE_JWT_SECRET", "s3cret".repeat(8)))
                        .environment())
                .doesNotContainKeys("SPRING_PROFILES_ACTIVE", "FLASHSALE_PAYMENT_WEBHOOK_SECRET");
    }

    @Test
    void niceBackEndUnlessToldZero() {
        assertThat(LocalConfig.fromEnvironment(ROOT, Map.of()).backEndNice()).isEqualTo(FlashSaleStack.BACK_END_NICE);
        assertThat(LocalConfig.fromEnvironment(ROOT, Map.of("FLASHSALE_BACKEND_NICE", "0"))
                        .backEndNice())
                .isZero();
    }
}
