package io.flashsale.bench;

import io.flashsale.launcher.Processes;
import io.flashsale.launcher.temporal.GoTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * vegeta ({@code github.com/tsenart/vegeta}), a kept open-loop HTTP load generator, run on a list of
 * the bench's requests to compare {@link HttpLoad} with: built from its Go module into {@code
 * .tools/} when missing, like the other Go programs; each attack a child process of its own whose
 * files (targets, results, log) stay in a folder of the run. vegeta's CPU is the kernel's account
 * of that child once it ended ({@link ChildCpu}): its startup, reading the targets and writing the
 * results included, as it costs when used.
 */
final class Vegeta {

    static final String VERSION = "v12.13.0";
    static final String MODULE = "github.com/tsenart/vegeta/v12@" + VERSION;

    /** vegeta's own per-request timeout, past which a request counts as an error (code 0). */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Path binary;
    private final Path dir;

    private Vegeta(Path binary, Path dir) {
        this.binary = binary;
        this.dir = dir;
    }

    /** The binary in {@code <root>/.tools/vegeta-VERSION/}, built first when missing; files of the runs in {@code dir}. */
    static Vegeta locateOrBuild(Path projectRoot, Path dir) throws IOException {
        Path binary = new GoTool(
                        projectRoot.resolve(".tools").resolve("vegeta-" + VERSION),
                        List.of(MODULE),
                        System.out::println)
                .locateOrBuild("vegeta")
                .map(folder -> folder.resolve("vegeta"))
                .orElseThrow(() -> new IllegalStateException("cannot build " + MODULE + " (needs go)"));
        return new Vegeta(binary, Files.createDirectories(dir));
    }

    /** One attack: its results, and the CPU vegeta used from its start to its exit. */
    record Attack(VegetaResults results, Duration cpu, List<String> command) {}

    /**
     * Sends {@code requests} once each, in order, request {@code i} meant at {@code i / perSecond}
     * seconds ({@code -rate}, {@code -lazy} targets that end the attack when they run out), starting
     * with {@code workers} and at most {@code maxWorkers} requests in flight; {@code tally} takes the
     * answers, latency from the intended send time ({@link VegetaResults}).
     */
    Attack attack(String name, List<byte[]> requests, int perSecond, int workers, int maxWorkers, Tally tally)
            throws Exception {
        Path targets = dir.resolve(name + ".targets.jsonl");
        Files.write(targets, requests.stream().map(VegetaTargets::line).toList());
        Path output = dir.resolve(name + ".bin");
        List<String> command = List.of(
                binary.toString(),
                "attack",
                "-format=json",
                "-lazy",
                "-targets=" + targets,
                "-rate=" + perSecond + "/1s",
                "-workers=" + workers,
                "-max-workers=" + maxWorkers,
                "-timeout=" + TIMEOUT.toSeconds() + "s",
                "-output=" + output);
        Duration before = ChildCpu.ended();
        run(
                command,
                name,
                Duration.ofSeconds(requests.size() / perSecond).plus(TIMEOUT).plusSeconds(60));
        Duration cpu = ChildCpu.ended().minus(before);
        Path results = dir.resolve(name + ".results.jsonl");
        run(
                List.of(binary.toString(), "encode", "-to=json", "-output=" + results, output.toString()),
                name + "-encode",
                Duration.ofMinutes(2));
        try (Stream<String> lines = Files.lines(results)) {
            return new Attack(VegetaResults.of(lines, perSecond, tally), cpu, command);
        }
    }

    /** Runs {@code command} to its end (output in {@code <name>.log}); fails on a non-zero exit or past {@code timeout}. */
    private void run(List<String> command, String name, Duration timeout) throws Exception {
        try (Processes processes = new Processes(dir, timeout)) {
            Process process = processes.start(name, command, Map.of());
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("vegeta " + command.get(1) + " still running after " + timeout
                        + "; see " + processes.log(name));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("vegeta " + command.get(1) + " failed (exit " + process.exitValue()
                        + "); see " + processes.log(name));
            }
        }
    }
}
