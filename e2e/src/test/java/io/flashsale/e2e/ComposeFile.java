package io.flashsale.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * A compose file as written: YAML anchors and merge keys resolved, variables not substituted
 * ({@link #withDefaults} renders a value as compose does when none of its variables is set).
 */
record ComposeFile(String text, Map<String, Object> root) {

    /** {@code ${NAME}}, {@code ${NAME:-default}}, {@code ${NAME-default}}, {@code ${NAME:?error}}. */
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{[A-Za-z0-9_]+(?::?([-?])([^}]*))?}");

    static ComposeFile read(Path file) throws IOException {
        String text = Files.readString(file);
        return new ComposeFile(text, yaml(text));
    }

    static Map<String, Object> yaml(String text) {
        return new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    }

    Set<String> services() {
        return map(root, "services").keySet();
    }

    Map<String, Object> service(String name) {
        return map(map(root, "services"), name);
    }

    /** The service's environment, from either form compose accepts (a map, or KEY=VALUE lines). */
    Map<String, String> environment(String service) {
        Object environment = service(service).get("environment");
        Map<String, String> variables = new LinkedHashMap<>();
        if (environment instanceof Map<?, ?> entries) {
            entries.forEach((key, value) -> variables.put("" + key, value == null ? "" : "" + value));
        } else if (environment instanceof List<?> lines) {
            for (Object line : lines) {
                String[] pair = ("" + line).split("=", 2);
                variables.put(pair[0], pair.length > 1 ? pair[1] : "");
            }
        }
        return variables;
    }

    /** The service's volumes as written (short syntax). */
    List<String> volumes(String service) {
        return words(service(service).get("volumes"));
    }

    /** The service's command as words (either form compose accepts). */
    List<String> command(String service) {
        return words(service(service).get("command"));
    }

    /** The healthcheck's test; empty when there is none or it is disabled. */
    List<String> healthcheck(String service) {
        Map<String, Object> healthcheck = map(service(service), "healthcheck");
        return Boolean.TRUE.equals(healthcheck.get("disable")) ? List.of() : words(healthcheck.get("test"));
    }

    /** Host address of each port the service publishes, "" for every interface. */
    List<String> publishedOn(String service) {
        Object ports = service(service).getOrDefault("ports", List.of());
        return ((List<?>) ports).stream().map(ComposeFile::hostAddress).toList();
    }

    /**
     * The services {@code service} waits for, each with its condition ({@code service_started} for
     * the list form, which has none).
     */
    Map<String, String> dependsOn(String service) {
        Object dependsOn = service(service).get("depends_on");
        Map<String, String> conditions = new LinkedHashMap<>();
        if (dependsOn instanceof Map<?, ?> entries) {
            entries.forEach((name, options) -> {
                Object condition = options instanceof Map<?, ?> map ? map.get("condition") : null;
                conditions.put("" + name, condition == null ? "service_started" : "" + condition);
            });
        } else if (dependsOn instanceof List<?> names) {
            names.forEach(name -> conditions.put("" + name, "service_started"));
        }
        return conditions;
    }

    /** The named volumes the file declares (top-level {@code volumes}). */
    Set<String> namedVolumes() {
        return map(root, "volumes").keySet();
    }

    /** Services another one waits for to exit successfully: one-shot jobs. */
    Set<String> awaitedToCompletion() {
        return services().stream()
                .map(service -> service(service).get("depends_on"))
                .filter(dependsOn -> dependsOn instanceof Map<?, ?>) // the list form has no conditions
                .flatMap(dependsOn -> ((Map<?, ?>) dependsOn).entrySet().stream())
                .filter(dependency -> ("" + dependency.getValue()).contains("service_completed_successfully"))
                .map(dependency -> "" + dependency.getKey())
                .collect(Collectors.toSet());
    }

    /** Every password, secret, token or auth variable, by "service NAME". */
    Map<String, String> secrets() {
        return variablesNamed("(?i).*(PASSWORD|PWD|SECRET|TOKEN|AUTH)");
    }

    /** Every variable naming a database user, by "service NAME". */
    Map<String, String> databaseUsers() {
        return variablesNamed(".*USER");
    }

    private Map<String, String> variablesNamed(String namePattern) {
        Map<String, String> variables = new TreeMap<>();
        services().forEach(service -> environment(service).forEach((name, value) -> {
            if (name.matches(namePattern)) {
                variables.put(service + " " + name, value);
            }
        }));
        return variables;
    }

    /** {@code value} as compose renders it with no variable set: defaults taken, the rest empty. */
    static String withDefaults(String value) {
        Matcher variable = VARIABLE.matcher(value.replace("$$", "\u0000"));
        StringBuilder rendered = new StringBuilder();
        while (variable.find()) {
            String replacement = "-".equals(variable.group(1)) ? variable.group(2) : "";
            variable.appendReplacement(rendered, Matcher.quoteReplacement(replacement));
        }
        return variable.appendTail(rendered).toString().replace('\u0000', '$');
    }

    /** The tag or digest of an image reference; "" when it has neither. */
    static String tagOf(String image) {
        int digest = image.indexOf('@');
        if (digest >= 0) {
            return image.substring(digest + 1);
        }
        int colon = image.lastIndexOf(':');
        return colon > image.lastIndexOf('/') ? image.substring(colon + 1) : "";
    }

    private static String hostAddress(Object port) {
        if (port instanceof Map<?, ?> longSyntax) {
            Object hostIp = longSyntax.get("host_ip");
            return hostIp == null ? "" : "" + hostIp;
        }
        String[] parts = withDefaults("" + port).split(":");
        return parts.length == 3 ? parts[0] : "";
    }

    private static List<String> words(Object value) {
        if (value instanceof List<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        return value == null ? List.of() : List.of(("" + value).trim().split("\\s+"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> parent, String key) {
        return (Map<String, Object>) parent.getOrDefault(key, Map.of());
    }
}
