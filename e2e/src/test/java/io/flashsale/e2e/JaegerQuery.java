package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Jaeger's query API (the one its UI reads), at {@code base}. */
final class JaegerQuery {

    /** One span of a trace: the service that sent it, its name, its tags as text. */
    record Span(String service, String operation, Map<String, String> tags) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final URI base;

    JaegerQuery(URI base) {
        this.base = base;
    }

    /** Ids of the traces of the last hour with a span of {@code service} tagged {@code key=value}. */
    List<String> traceIds(String service, String key, String value) throws Exception {
        String tags = JSON.writeValueAsString(Map.of(key, value));
        JsonNode traces = get("/api/traces?lookback=1h&limit=20&service=" + encode(service) + "&tags=" + encode(tags));
        List<String> ids = new ArrayList<>();
        traces.forEach(trace -> ids.add(trace.path("traceID").asText()));
        return ids;
    }

    /** The span names Jaeger has seen from {@code service}. */
    List<String> operations(String service) throws Exception {
        List<String> names = new ArrayList<>();
        get("/api/services/" + encode(service) + "/operations").forEach(name -> names.add(name.asText()));
        return names;
    }

    /** Every span of the trace, as Jaeger has it now. */
    List<Span> spans(String traceId) throws Exception {
        JsonNode trace = get("/api/traces/" + traceId).path(0);
        Map<String, String> services = new HashMap<>();
        trace.path("processes")
                .properties()
                .forEach(process -> services.put(
                        process.getKey(), process.getValue().path("serviceName").asText()));
        List<Span> spans = new ArrayList<>();
        trace.path("spans").forEach(span -> {
            Map<String, String> tags = new HashMap<>();
            span.path("tags")
                    .forEach(tag ->
                            tags.put(tag.path("key").asText(), tag.path("value").asText()));
            spans.add(new Span(
                    services.get(span.path("processID").asText()),
                    span.path("operationName").asText(),
                    tags));
        });
        return spans;
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> response =
                HTTP.send(HttpRequest.newBuilder(base.resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body()).path("data");
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
