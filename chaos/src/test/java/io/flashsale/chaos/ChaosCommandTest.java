package io.flashsale.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flashsale.launcher.redis.RedisMode;
import io.flashsale.launcher.temporal.TemporalMode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ChaosCommandTest {

    @Test
    void asksForTenMinutesAtTwentyASecondOnTheDevServerByDefault() {
        ChaosCommand options = parse();

        assertThat(options.duration).isEqualTo(Duration.ofMinutes(10));
        assertThat(options.seed).isNull();
        assertThat(options.rate).isEqualTo(20);
        assertThat(options.temporal).isEqualTo(TemporalMode.dev);
        assertThat(options.redis).isEqualTo(RedisMode.single);
        assertThat(options.root).isEqualTo(Path.of("."));
        assertThat(options.out).isEqualTo(Path.of("target", "chaos"));
    }

    @Test
    void takesTheRunOfChaosIT() {
        ChaosCommand options =
                parse("--duration", "90s", "--seed", "13", "--rate", "15", "--temporal", "cluster", "--out", "x");

        assertThat(options.duration).isEqualTo(Duration.ofSeconds(90));
        assertThat(options.seed).isEqualTo(13);
        assertThat(options.rate).isEqualTo(15);
        assertThat(options.temporal).isEqualTo(TemporalMode.cluster);
        assertThat(options.redis).isEqualTo(RedisMode.single);
        assertThat(options.root).isEqualTo(Path.of("."));
        assertThat(options.out).isEqualTo(Path.of("x"));
    }

    @Test
    void runsOnRedisSentinelWhenAskedTo() {
        assertThat(parse("--redis", "sentinel").redis).isEqualTo(RedisMode.sentinel);
        assertThatThrownBy(() -> parse("--redis", "cluster"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("single, sentinel");
    }

    @Test
    void refusesATemporalItCannotStart() {
        assertThatThrownBy(() -> parse("--temporal", "prod"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("dev, cluster");
    }

    @Test
    void refusesADurationWithoutItsUnitSpelledOut() {
        assertThatThrownBy(() -> parse("--duration", "1h")).isInstanceOf(CommandLine.ParameterException.class);
    }

    @Test
    void namesEveryOptionInItsHelpWithItsDefault() {
        StringWriter help = new StringWriter();
        new CommandLine(new ChaosCommand()).setOut(new PrintWriter(help)).execute("--help");

        assertThat(help.toString())
                .contains("--duration", "Default: 10m", "--seed", "--rate", "--temporal", "--redis", "--root", "--out")
                .doesNotContain("Default: null");
    }

    private static ChaosCommand parse(String... args) {
        ChaosCommand command = new ChaosCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }
}
