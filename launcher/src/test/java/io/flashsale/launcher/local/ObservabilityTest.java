package io.flashsale.launcher.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local Prometheus runs compose's prometheus.yml with this machine's addresses, or refuses to. */
class ObservabilityTest {

    private static final Path ROOT =
            Path.of(System.getProperty("flashsale.root", "..")).toAbsolutePath().normalize();

    @Test
    void pointsComposesScrapeConfigurationAtThisMachine(@TempDir Path dir) throws Exception {
        LocalConfig config =
                LocalConfig.fromEnvironment(ROOT, Map.of("API_PORT", "18080", "PROMETHEUS_INTERVAL", "2s"));

        String yaml = new Observability(config).prometheusConfig(dir, List.of("127.0.0.1:8000"));

        assertThat(yaml)
                .contains("\"127.0.0.1:18080\"", "\"127.0.0.1:8081\"", "[\"127.0.0.1:8000\"]", "scrape_interval: 2s")
                .contains(
                        ROOT.resolve(Observability.RULES).toString(),
                        dir.resolve("api-token").toString())
                .doesNotContain("api:8080", "/etc/prometheus/");
    }

    @Test
    void refusesAComposeFileItNoLongerFits(@TempDir Path root) throws Exception {
        Path deploy = Files.createDirectories(root.resolve("deploy/prometheus"));
        Files.writeString(
                deploy.resolve("prometheus.yml"), "scrape_configs:\n  - targets: [\"api:8080\", 'api:8080']\n");
        LocalConfig config = LocalConfig.fromEnvironment(root, Map.of());

        assertThatThrownBy(() -> new Observability(config).prometheusConfig(root, List.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no longer fits");
    }
}
