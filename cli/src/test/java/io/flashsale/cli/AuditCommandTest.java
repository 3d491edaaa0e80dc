package io.flashsale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The command against a stand-in for the api's admin endpoints that answers fixed reports. */
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

    private FakeApi api;

    @BeforeEach
    void start() throws IOException {
        api = new FakeApi(ANSWERS);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void printsARowASaleAndALineAViolationAndFailsWhenOneSaleFails() {
        Cli.Run run = audit();

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out())
                .containsSubsequence("SALE", "RESULT", "s-ok", "PASS", "s-lost", "FAIL")
                .contains("    I3: Redis has no stock for the sale (lost?)");
        assertThat(run.out().lines().filter(line -> line.startsWith("s-lost")))
                .singleElement()
                .satisfies(row -> assertThat(row.split("\\s+"))
                        .containsExactly("s-lost", "6", "2", "2", "2", "-", "0", "2", "1", "FAIL"));
        assertThat(api.asked()).allSatisfy(call -> assertThat(call).contains("Bearer "));
    }

    @Test
    void passesForOneSaleThatPasses() {
        Cli.Run run = audit("--sale", "s-ok");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("s-ok").doesNotContain("s-lost");
        assertThat(api.asked()).noneMatch(call -> call.startsWith("GET /api/sales "));
    }

    @Test
    void repairsFirstAndAuditsWhatTheRepairLeft() {
        Cli.Run run = audit("--sale", "s-lost", "--repair");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("repair s-lost: sale reloaded true, holds made HELD 2 [\"p1\",\"p2\"], holds released 0 [],"
                        + " buyers restored 2, stock missing -> 2")
                .containsPattern("s-lost +5 .* PASS");
        assertThat(api.asked()).singleElement().asString().startsWith("POST /api/sales/s-lost/audit/repair");
    }

    @Test
    void saysWhatTheApiRefusedAndFails() {
        Cli.Run run = audit("--sale", "nosuch");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("flashsale audit: 404 sale-not-found: no sale nosuch");
    }

    @Test
    void refusesWordsAndOptionsWithoutValues() {
        assertThat(audit("s-ok").exitCode()).isEqualTo(2);
        assertThat(audit("s-ok").err()).contains("Unmatched argument at index 3: 's-ok'", "Usage: flashsale audit");
        assertThat(audit("--sale").exitCode()).isEqualTo(2);
        assertThat(audit("--sale").err()).contains("Missing required parameter for option '--sale' (SALE)");
        assertThat(api.asked()).isEmpty();
    }

    private Cli.Run audit(String... args) {
        List<String> line = new ArrayList<>(List.of("audit", "--api", api.url()));
        line.addAll(List.of(args));
        return Cli.run(line.toArray(String[]::new));
    }
}
