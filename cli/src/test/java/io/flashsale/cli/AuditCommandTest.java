package io.flashsale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The command against a JDK HTTP server that answers the api's admin endpoints with fixed reports. */
class AuditCommandTest {

    private static final String PASSING =
            """
            {"saleId":"s-ok","total":5,"mysqlAvailable":3,"pendingPayment":1,"paid":1,"redisStock":3,
             "heldHolds":1,"runningWorkflows":1,"violations":[],"result":"PASS"}""";
    private static final String FAILING =
            """
            {"saleId":"s-lost","total":6,"mysqlAvailable":2,"pendingPayment":2,"paid":2,"redisStock":null,
             "heldHolds":0,"runningWorkflows":2,
             "violations":[{"invariant":"I3","detail":"Redis has no stock for the sale (lost?)"}],"result":"FAIL"}""";
    private static final Map<String, String> ANSWERS = Map.of(
            "GET /api/sales",
            "{\"sales\":[\"s-ok\",\"s-lost\"]}",
            "GET /api/sales/s-ok/audit",
            PASSING,
            "GET /api/sales/s-lost/audit",
            FAILING,
            "POST /api/sales/s-lost/audit/repair",
            """
            {"saleId":"s-lost","saleReloaded":true,"holdsRestored":["p1","p2"],"holdsReleased":[],
             "buyersRestored":2,"stockBefore":null,"stockAfter":2,"audit":%s}"""
                    .formatted(PASSING.replace("s-ok", "s-lost")));

    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::answer);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void printsARowASaleAndALineAViolationAndFailsWhenOneSaleFails() {
        assertThat(run()).isEqualTo(1);
        assertThat(out())
                .containsSubsequence("SALE", "RESULT", "s-ok", "PASS", "s-lost", "FAIL")
                .contains("    I3: Redis has no stock for the sale (lost?)");
        assertThat(out().lines().filter(line -> line.startsWith("s-lost")))
                .singleElement()
                .satisfies(row -> assertThat(row.split("\\s+"))
                        .containsExactly("s-lost", "6", "2", "2", "2", "-", "0", "2", "1", "FAIL"));
        assertThat(asked).allSatisfy(call -> assertThat(call).contains("Bearer "));
    }

    @Test
    void passesForOneSaleThatPasses() {
        assertThat(run("--sale", "s-ok")).isZero();
        assertThat(out()).contains("s-ok").doesNotContain("s-lost");
        assertThat(asked).noneMatch(call -> call.startsWith("GET /api/sales "));
    }

    @Test
    void repairsFirstAndAuditsWhatTheRepairLeft() {
        assertThat(run("--sale", "s-lost", "--repair")).isZero();
        assertThat(out())
                .contains("repair s-lost: sale reloaded true, holds made HELD 2 [\"p1\",\"p2\"], holds released 0 [],"
                        + " buyers restored 2, stock missing -> 2")
                .containsPattern("s-lost +5 .* PASS");
        assertThat(asked).singleElement().asString().startsWith("POST /api/sales/s-lost/audit/repair");
    }

    @Test
    void saysWhatTheApiRefusedAndFails() {
        assertThat(run("--sale", "nosuch")).isEqualTo(1);
        assertThat(err()).contains("flashsale audit: 404 sale-not-found: no sale nosuch");
    }

    @Test
    void refusesWordsAndOptionsWithoutValues() {
        assertThat(run("s-ok")).isEqualTo(2);
        assertThat(err()).contains("unexpected s-ok", "usage: bin/flashsale audit");
        assertThat(run("--sale")).isEqualTo(2);
        assertThat(err()).contains("--sale needs a value");
        assertThat(asked).isEmpty();
    }

    private int run(String... args) {
        err.reset();
        List<String> line = new ArrayList<>(
                List.of("--api", "http://127.0.0.1:" + server.getAddress().getPort()));
        line.addAll(List.of(args));
        return AuditCommand.run(
                line.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private void answer(HttpExchange exchange) throws IOException {
        String call =
                exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
        asked.add(call + " " + exchange.getRequestHeaders().getFirst("Authorization"));
        String body = ANSWERS.get(call);
        int status = body == null ? 404 : 200;
        if (body == null) {
            body = "{\"type\":\"https://flashsale.dev/problems/sale-not-found\",\"detail\":\"no sale nosuch\"}";
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders()
                .add("Content-Type", status == 200 ? "application/json" : "application/problem+json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
