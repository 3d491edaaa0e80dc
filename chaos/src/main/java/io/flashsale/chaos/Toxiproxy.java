package io.flashsale.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.devtemporal.GoTool;
import io.flashsale.stack.Processes;
import io.flashsale.testkit.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Shopify's Toxiproxy between the apps and a store: one TCP proxy a link, listening on a free
 * loopback port, and the faults put on it through its HTTP API (a toxic, or the proxy disabled:
 * every connection through it cut and new ones refused). Built from its Go module into
 * {@code .tools/} like the Temporal programs, started and stopped by its own pid.
 */
final class Toxiproxy {

    static final String VERSION = "v2.12.0";
    private static final String MODULE = "github.com/Shopify/toxiproxy/v2/cmd/server@" + VERSION;

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private final URI api;

    private Toxiproxy(int port) {
        this.api = URI.create("http://127.0.0.1:" + port);
    }

    /** Builds the server when missing, starts it as {@code toxiproxy} and waits until its API answers. */
    static Toxiproxy start(Processes processes, Path projectRoot) throws Exception {
        Path binary = new GoTool(
                        projectRoot.resolve(".tools").resolve("toxiproxy-" + VERSION),
                        List.of(MODULE),
                        System.out::println)
                .locateOrBuild("server")
                .map(folder -> folder.resolve("server"))
                .orElseThrow(() -> new IllegalStateException("cannot build " + MODULE + " (needs go)"));
        int port = FreePorts.next();
        processes.start(
                "toxiproxy",
                List.of(binary.toString(), "-host", "127.0.0.1", "-port", Integer.toString(port)),
                Map.of());
        processes.awaitLog("toxiproxy", "Starting Toxiproxy HTTP server");
        return new Toxiproxy(port);
    }

    /** A proxy named {@code name} to {@code upstream} ({@code host:port}); returns the port it listens on. */
    int proxy(String name, String upstream) throws Exception {
        int port = FreePorts.next();
        send("POST", "/proxies", Map.of("name", name, "listen", "127.0.0.1:" + port, "upstream", upstream));
        return port;
    }

    /** Puts the toxic {@code type} (named after it) on the replies of proxy {@code name}. */
    void toxic(String name, String type, Map<String, Object> attributes) throws Exception {
        send(
                "POST",
                "/proxies/" + name + "/toxics",
                Map.of("name", type, "type", type, "stream", "downstream", "attributes", attributes));
    }

    void removeToxic(String name, String type) throws Exception {
        send("DELETE", "/proxies/" + name + "/toxics/" + type, null);
    }

    /** Disabled: every connection through the proxy closed, new ones refused; enabled: accepting again. */
    void enabled(String name, boolean enabled) throws Exception {
        send("POST", "/proxies/" + name, Map.of("enabled", enabled));
    }

    /** What Toxiproxy reports of proxy {@code name}: {@code enabled} or {@code disabled}, then its toxics. */
    String state(String name) throws Exception {
        JsonNode proxy = json.readTree(send("GET", "/proxies/" + name, null));
        List<String> toxics = new ArrayList<>();
        proxy.path("toxics").forEach(toxic -> toxics.add(toxic.path("type").asText()));
        return (proxy.path("enabled").asBoolean() ? "enabled" : "disabled") + " " + toxics;
    }

    private String send(String method, String path, Object body) throws Exception {
        HttpRequest.BodyPublisher publisher = body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body));
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(api.resolve(path))
                        .method(method, publisher)
                        .header("Content-Type", "application/json")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException(method + " " + path + ": " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }
}
