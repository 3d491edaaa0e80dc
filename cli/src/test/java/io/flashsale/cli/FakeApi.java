package io.flashsale.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A JDK HTTP server in the api's place: it answers the calls it knows ({@code "GET /api/sales"})
 * with fixed JSON, any other with the api's 404 sale-not-found, and keeps every call with its
 * Authorization header.
 */
final class FakeApi implements AutoCloseable {

    private static final String NOT_FOUND =
            "{\"type\":\"https://flashsale.dev/problems/sale-not-found\",\"detail\":\"no sale nosuch\"}";

    private final Map<String, String> answers;
    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    FakeApi(Map<String, String> answers) throws IOException {
        this.answers = answers;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::answer);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Each call as {@code "METHOD PATH Authorization"}. */
    List<String> asked() {
        return asked;
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void answer(HttpExchange exchange) throws IOException {
        String call =
                exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
        asked.add(call + " " + exchange.getRequestHeaders().getFirst("Authorization"));
        String body = answers.getOrDefault(call, NOT_FOUND);
        int status = answers.containsKey(call) ? 200 : 404;
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders()
                .add("Content-Type", status == 200 ? "application/json" : "application/problem+json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }
}
