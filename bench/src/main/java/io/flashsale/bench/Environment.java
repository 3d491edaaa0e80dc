package io.flashsale.bench;

import io.flashsale.launcher.TemporalService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Locale;
import java.util.Map;

/** Where a run ran: the machine, the Temporal, the day and the settings, each process's niceness. */
record Environment(
        String temporal, int cpus, String cpu, String memory, String java, String run, Map<String, Integer> niceness) {

    static Environment of(Settings settings, TemporalService temporal, Map<String, Integer> niceness) {
        return new Environment(
                temporal.toString(),
                Runtime.getRuntime().availableProcessors(),
                firstLine(Path.of("/proc/cpuinfo"), "model name"),
                memory(firstLine(Path.of("/proc/meminfo"), "MemTotal")),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                LocalDate.now() + ": " + settings,
                niceness);
    }

    /** The chart's header line. */
    String machine() {
        return "%s CPUs (%s), %s RAM, %s, %s".formatted(cpus, cpu, memory, java, temporal);
    }

    /** /proc/meminfo's "24683584 kB" as "23.5 GiB"; anything else as it is. */
    static String memory(String meminfo) {
        if (!meminfo.matches("\\d+ kB")) {
            return meminfo;
        }
        double gib = Long.parseLong(meminfo.substring(0, meminfo.length() - 3)) / (1024.0 * 1024.0);
        return String.format(Locale.ROOT, "%.1f GiB", gib);
    }

    private static String firstLine(Path file, String prefix) {
        try {
            return Files.readAllLines(file).stream()
                    .filter(l -> l.startsWith(prefix))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("?");
        } catch (Exception e) {
            return "?";
        }
    }
}
