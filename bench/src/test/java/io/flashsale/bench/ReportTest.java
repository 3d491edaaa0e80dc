package io.flashsale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {

    @Test
    void writesEveryPhaseToResultsJsonInSnakeCase(@TempDir Path dir) throws Exception {
        Tally tally = new Tally(null);
        tally.answered(0, 202, "{}", 2_000_000L);
        Report report = new Report(new Report.Environment("2 CPUs, dev server", "today", Map.of("api", 0)));
        report.phases()
                .add(new Report.Phase("P4", "open loop")
                        .measure("sold-out", tally, 8)
                        .latency("winners", tally, 50.0, "admitted")
                        .value("oversold", 0)
                        .ratio(4.2, 3, "ratio >= 3", true)
                        .fact("mysql balanced", true));

        report.write(dir);

        JsonNode json = new ObjectMapper().readTree(dir.resolve("results.json").toFile());
        assertThat(json.at("/environment/niceness/api").asInt()).isZero();
        JsonNode phase = json.at("/phases/0");
        assertThat(phase.get("phase").asText()).isEqualTo("P4");
        assertThat(phase.at("/measures/sold-out/connections").asInt()).isEqualTo(8);
        assertThat(phase.at("/latencies/winners/p99_target_ms").asDouble()).isEqualTo(50.0);
        assertThat(phase.at("/latencies/winners/answers").asLong()).isEqualTo(1);
        assertThat(phase.at("/values/oversold").asLong()).isZero();
        assertThat(phase.get("ratio_target").asDouble()).isEqualTo(3.0);
        assertThat(phase.get("met").asBoolean()).isTrue();
        assertThat(phase.at("/facts/mysql balanced").asBoolean()).isTrue();
        assertThat(dir.resolve("chart.png")).exists();
    }
}
