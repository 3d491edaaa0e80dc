package io.flashsale.e2e;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** The objects {@code helm template} rendered, as YAML maps, found by kind and name. */
record RenderedChart(String text, List<Map<String, Object>> objects) {

    @SuppressWarnings("unchecked")
    static RenderedChart parse(String text) {
        Iterable<Object> documents = new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(text);
        List<Map<String, Object>> objects = StreamSupport.stream(documents.spliterator(), false)
                .filter(document -> document != null)
                .map(document -> (Map<String, Object>) document)
                .toList();
        return new RenderedChart(text, objects);
    }

    List<Map<String, Object>> ofKind(String kind) {
        return objects.stream()
                .filter(object -> kind.equals(object.get("kind")))
                .toList();
    }

    /** The one object of {@code kind} whose name ends with {@code suffix}. */
    Map<String, Object> find(String kind, String suffix) {
        List<Map<String, Object>> found = ofKind(kind).stream()
                .filter(object -> ("" + at(object, "metadata", "name")).endsWith(suffix))
                .toList();
        if (found.size() != 1) {
            throw new AssertionError(found.size() + " " + kind + " named *" + suffix + " in\n" + text);
        }
        return found.get(0);
    }

    /** The first container of a Deployment. */
    static Map<String, Object> container(Map<String, Object> deployment) {
        return map(at(deployment, "spec", "template", "spec", "containers", 0));
    }

    /** A container's environment by variable name, each entry as rendered (value or valueFrom). */
    static Map<String, Map<String, Object>> env(Map<String, Object> container) {
        Map<String, Map<String, Object>> variables = new LinkedHashMap<>();
        for (Object variable : (List<?>) container.getOrDefault("env", List.of())) {
            variables.put("" + map(variable).get("name"), map(variable));
        }
        return variables;
    }

    /** The node at {@code path}: map keys and list indices; null where it leads nowhere. */
    static Object at(Object node, Object... path) {
        Object current = node;
        for (Object step : path) {
            if (current instanceof Map<?, ?> map) {
                current = map.get(step);
            } else if (current instanceof List<?> list && step instanceof Integer index && index < list.size()) {
                current = list.get(index);
            } else {
                return null;
            }
        }
        return current;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object node) {
        return node == null ? Map.of() : (Map<String, Object>) node;
    }
}
