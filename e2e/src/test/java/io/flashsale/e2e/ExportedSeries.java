package io.flashsale.e2e;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.temporal.common.reporter.MicrometerClientStatsReporter;
import io.temporal.worker.MetricsType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The series names Prometheus finds on the api's and the worker's {@code /actuator/prometheus}, as
 * their registry spells them: this project's meters, read from the sources of the modules the two
 * are built from; the Temporal SDK's, from its own constants; the JVM's, from the binders Spring
 * Boot registers; and {@code up}, which Prometheus adds to every target it scrapes. Each meter is
 * registered in a {@link PrometheusMeterRegistry} and scraped, so the suffixes ({@code _total},
 * {@code _seconds_bucket}, ...) are the exporter's own.
 */
final class ExportedSeries {

    /** The modules the api and the worker are built from. */
    private static final List<String> MODULES = List.of("api", "worker", "activities", "stores", "workflows");

    /** A Micrometer or Temporal (Tally) meter registration, its name a literal or a constant, up to the {@code ;}. */
    private static final Pattern REGISTRATION =
            Pattern.compile("(Counter\\.builder|Timer\\.builder|Gauge\\.builder|\\.counter|\\.timer|\\.gauge)\\(\\s*"
                    + "(?:\"([^\"]+)\"|([A-Z]\\w*\\.[A-Z][A-Z0-9_]*))([^;]*);");

    private static final Pattern CONSTANT = Pattern.compile("static final String ([A-Z][A-Z0-9_]*) = \"([^\"]+)\";");
    private static final Pattern BASE_UNIT = Pattern.compile("\\.baseUnit\\(\"([^\"]+)\"\\)");

    /** The SDK's gauges; its other names are timers when they end in {@code _latency}, else counters. */
    private static final Set<String> TEMPORAL_GAUGES = Set.of(
            MetricsType.NUM_POLLERS,
            MetricsType.WORKER_TASK_SLOTS_AVAILABLE,
            MetricsType.WORKER_TASK_SLOTS_USED,
            MetricsType.STICKY_CACHE_SIZE,
            MetricsType.WORKFLOW_ACTIVE_THREAD_COUNT,
            MetricsType.RESOURCE_MEM_USAGE,
            MetricsType.RESOURCE_CPU_USAGE,
            MetricsType.RESOURCE_MEM_PID,
            MetricsType.RESOURCE_CPU_PID);

    private ExportedSeries() {}

    static Set<String> read(Path root) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registerProjectMeters(root, registry);
        registerTemporalMeters(registry);
        try (JvmGcMetrics gc = new JvmGcMetrics()) {
            Stream.of(
                            new JvmMemoryMetrics(),
                            gc,
                            new JvmThreadMetrics(),
                            new ClassLoaderMetrics(),
                            new ProcessorMetrics(),
                            new UptimeMetrics())
                    .forEach(binder -> binder.bindTo(registry));
            Set<String> names = scrapedNames(registry.scrape());
            names.add("up");
            return names;
        }
    }

    private static void registerProjectMeters(Path root, MeterRegistry registry) {
        Map<Path, String> sources = sources(root);
        Map<String, String> constants = constants(sources);
        sources.values().forEach(source -> {
            Matcher registration = REGISTRATION.matcher(source);
            while (registration.find()) {
                String name =
                        registration.group(2) != null ? registration.group(2) : constants.get(registration.group(3));
                if (name != null) {
                    register(registration.group(1), name, registration.group(4), registry);
                }
            }
        });
    }

    private static void register(String call, String name, String rest, MeterRegistry registry) {
        Matcher unit = BASE_UNIT.matcher(rest);
        String baseUnit = unit.find() ? unit.group(1) : null;
        if (call.toLowerCase().contains("counter")) {
            Counter.builder(name).baseUnit(baseUnit).register(registry).increment();
        } else if (call.toLowerCase().contains("timer")) {
            Timer.builder(name)
                    .publishPercentileHistogram(rest.contains("publishPercentileHistogram"))
                    .register(registry)
                    .record(Duration.ofMillis(1));
        } else {
            Gauge.builder(name, () -> 1).baseUnit(baseUnit).register(registry);
        }
    }

    /** Through the SDK's own reporter, as the Temporal starter wires it to the Spring registry. */
    private static void registerTemporalMeters(MeterRegistry registry) {
        MicrometerClientStatsReporter reporter = new MicrometerClientStatsReporter(registry);
        for (String name : temporalNames()) {
            if (name.endsWith("_latency")) {
                reporter.reportTimer(name, Map.of(), com.uber.m3.util.Duration.ofMillis(1));
            } else if (TEMPORAL_GAUGES.contains(name)) {
                reporter.reportGauge(name, Map.of(), 1);
            } else {
                reporter.reportCounter(name, Map.of(), 1);
            }
        }
    }

    private static Set<String> temporalNames() {
        Set<String> names = new TreeSet<>();
        for (Class<?> type : List.of(MetricsType.class, io.temporal.serviceclient.MetricsType.class)) {
            for (Field field : type.getFields()) {
                if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                    names.add((String) constantValue(field));
                }
            }
        }
        names.remove(MetricsType.TEMPORAL_METRICS_PREFIX);
        return names;
    }

    private static Object constantValue(Field field) {
        try {
            return field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every {@code static final String} constant of the sources, by {@code ClassName.NAME}. */
    private static Map<String, String> constants(Map<Path, String> sources) {
        Map<String, String> constants = new HashMap<>();
        sources.forEach((file, source) -> {
            String className = file.getFileName().toString().replace(".java", "");
            CONSTANT.matcher(source)
                    .results()
                    .forEach(constant -> constants.put(className + "." + constant.group(1), constant.group(2)));
        });
        return constants;
    }

    /** The main Java sources of {@link #MODULES}, by file. */
    private static Map<Path, String> sources(Path root) {
        Map<Path, String> sources = new HashMap<>();
        for (String module : MODULES) {
            try (Stream<Path> files = Files.walk(root.resolve(module).resolve("src/main/java"))) {
                files.filter(file -> file.toString().endsWith(".java")).forEach(file -> sources.put(file, text(file)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return sources;
    }

    private static String text(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The sample names of a scrape in the Prometheus text format. */
    private static Set<String> scrapedNames(String scrape) {
        Set<String> names = new TreeSet<>();
        scrape.lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .map(line -> line.split("[{ ]", 2)[0])
                .forEach(names::add);
        return names;
    }
}
