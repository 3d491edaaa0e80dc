package io.flashsale.chaos;

import io.flashsale.launcher.redis.RedisMode;
import io.flashsale.launcher.temporal.TemporalMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/** {@code bin/flashsale chaos}: one {@link ChaosRun}, its report printed; exit 1 on a violation. */
@Command(
        name = "chaos",
        mixinStandardHelpOptions = true,
        showDefaultValues = true,
        description = {
            "A private stack (own Redis and MariaDB, Temporal, two workers, two apis, Toxiproxy between the apps"
                    + " and the stores) with three sales under --rate operations a second while every 10-40 s a"
                    + " process is SIGKILLed or a link broken, by a schedule from the seed; then the checker"
                    + " compares the history with MySQL, Redis and Temporal.",
            "Writes schedule.txt, history.jsonl and result.txt to --out; exits 1 on any violation."
        })
public final class ChaosCommand implements Callable<Integer> {

    @Option(
            names = "--duration",
            defaultValue = "10m",
            converter = Seconds.class,
            description = "How long the load and the faults last: seconds (90s) or minutes (10m).")
    private Duration duration;

    @Option(
            names = "--seed",
            showDefaultValue = Visibility.NEVER,
            description = "The seed of the fault schedule and of the load; the same seed replays the same"
                    + " faults. Default: from the clock.")
    private Long seed;

    @Option(names = "--rate", defaultValue = "20", description = "Operations a second, open loop.")
    private int rate;

    @Option(
            names = "--temporal",
            defaultValue = "dev",
            description = "The Temporal of the stack: ${COMPLETION-CANDIDATES}.")
    private TemporalMode temporal;

    @Option(
            names = "--redis",
            defaultValue = "single",
            description = "The Redis of the stack: ${COMPLETION-CANDIDATES}; killed, a single one restarts from its"
                    + " files, a Sentinel group's master is lost with its disk.")
    private RedisMode redis;

    @Option(names = "--root", defaultValue = ".", description = "The checkout: the apps' jars and .tools/.")
    private Path root;

    @Option(names = "--out", defaultValue = "target/chaos", description = "Where the run's files go.")
    private Path out;

    @Override
    public Integer call() throws Exception {
        ChaosRun.Result result = ChaosRun.run(options());
        System.out.println("\n" + result.table() + "\nhistory, schedule and result in " + out);
        return result.violations().isEmpty() ? 0 : 1;
    }

    /** The run the options ask for. */
    ChaosRun.Options options() {
        long chosen = seed != null ? seed : System.currentTimeMillis() % 100_000;
        return new ChaosRun.Options(
                chosen, duration, rate, root, out, temporal == TemporalMode.cluster, redis == RedisMode.sentinel);
    }

    /** A duration in seconds ({@code 90s}, or {@code 90}) or minutes ({@code 10m}). */
    static final class Seconds implements ITypeConverter<Duration> {

        @Override
        public Duration convert(String text) {
            if (!text.matches("\\d+[sm]?")) {
                throw new CommandLine.TypeConversionException("not seconds (90s) or minutes (10m): " + text);
            }
            long amount = Long.parseLong(text.replaceAll("[sm]$", ""));
            return text.endsWith("m") ? Duration.ofMinutes(amount) : Duration.ofSeconds(amount);
        }
    }
}
