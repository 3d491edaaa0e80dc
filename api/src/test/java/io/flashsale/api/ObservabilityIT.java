package io.flashsale.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.testkit.ApiClient.Response;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What operators probe: readiness covering MySQL, Redis and Temporal, and the business counters on
 * the Prometheus scrape. The context is shared with the other api ITs, so counters are compared
 * before and after this test's own requests.
 */
class ObservabilityIT extends ApiIntegrationTest {

    @Test
    void readinessIsUpAndOpenToProbes() {
        Response readiness = api.get("/actuator/health/readiness", null).assertStatus(200);

        assertThat(readiness.field("status")).isEqualTo("UP");
        assertThat(readiness.body().has("components"))
                .as("no details without a token: %s", readiness.text())
                .isFalse();
    }

    @Test
    void healthShowsNoComponentToABuyer() {
        String buyer = TestTokens.buyer(newUser());

        for (String path : new String[] {"/actuator/health", "/actuator/health/readiness"}) {
            Response health = api.get(path, buyer).assertStatus(200);

            assertThat(health.field("status")).isEqualTo("UP");
            assertThat(health.body().has("components"))
                    .as("no details for a buyer's token: %s", health.text())
                    .isFalse();
        }
    }

    @Test
    void readinessShowsMySqlRedisAndTemporalToAnAdmin() {
        Response readiness = api.get("/actuator/health/readiness", ADMIN).assertStatus(200);

        assertThat(readiness.field("status")).isEqualTo("UP");
        for (String component : new String[] {"db", "redis", "temporal", "readinessState"}) {
            assertThat(readiness
                            .body()
                            .path("components")
                            .path(component)
                            .path("status")
                            .asText())
                    .as("%s in %s", component, readiness.text())
                    .isEqualTo("UP");
        }
        assertThat(readiness
                        .body()
                        .path("components")
                        .path("temporal")
                        .path("details")
                        .path("status")
                        .asText())
                .isEqualTo("SERVING");
    }

    @Test
    void prometheusCountsAdmissionsByOutcome() {
        String before = scrape();
        String sale = openSale(1);
        String buyer = newUser();
        String late = newUser();

        api.purchase(TestTokens.buyer(buyer), sale, "key-1").assertStatus(202);
        api.purchase(TestTokens.buyer(buyer), sale, "key-1").assertStatus(200);
        api.purchase(TestTokens.buyer(late), sale, "key-1").assertProblem(409, "sold-out");
        awaitStatus(TestTokens.buyer(buyer), purchaseId(sale, buyer), "PENDING_PAYMENT");

        String after = scrape();
        assertThat(admissions(after, "ADMITTED") - admissions(before, "ADMITTED"))
                .isEqualTo(1);
        assertThat(admissions(after, "SAME_KEY") - admissions(before, "SAME_KEY"))
                .isEqualTo(1);
        assertThat(admissions(after, "SOLD_OUT") - admissions(before, "SOLD_OUT"))
                .isEqualTo(1);
        assertThat(admissions(after, "ALREADY_PURCHASED") - admissions(before, "ALREADY_PURCHASED"))
                .isZero();
        assertThat(admissions(after, "RATE_LIMITED") - admissions(before, "RATE_LIMITED"))
                .isZero();
        assertThat(after).contains("flashsale_admissions_deferred_starts_total");
    }

    /** Histograms an alert can take a percentile of: the admission by outcome, the payment by outcome. */
    @Test
    void prometheusTimesAdmissionsAndPaymentsByOutcome() {
        String before = scrape();
        String sale = openSale(1);
        String buyer = newUser();
        String id = purchaseId(sale, buyer);
        api.purchase(TestTokens.buyer(buyer), sale, "key-1").assertStatus(202);
        awaitStatus(TestTokens.buyer(buyer), id, "PENDING_PAYMENT");
        api.pay(TestTokens.payments(), id, "pay-" + buyer).assertStatus(200);

        String after = scrape();
        String admissions = "flashsale_admission_seconds_count";
        assertThat(sample(after, admissions, "ADMITTED") - sample(before, admissions, "ADMITTED"))
                .isEqualTo(1);
        String payments = "flashsale_payment_confirmation_seconds_count";
        assertThat(sample(after, payments, "PAID") - sample(before, payments, "PAID"))
                .isEqualTo(1);
        assertThat(after.lines())
                .anyMatch(line ->
                        line.startsWith("flashsale_admission_seconds_bucket{") && line.contains("outcome=\"ADMITTED\""))
                .anyMatch(line -> line.startsWith("flashsale_payment_confirmation_seconds_bucket{")
                        && line.contains("outcome=\"PAID\""));
    }

    @Test
    void prometheusNeedsAnAdmin() {
        assertThat(api.get("/actuator/prometheus", null).status()).isEqualTo(401);
        assertThat(api.get("/actuator/prometheus", TestTokens.buyer(newUser())).status())
                .isEqualTo(403);
    }

    private String scrape() {
        Response scrape = api.get("/actuator/prometheus", ADMIN).assertStatus(200);
        assertThat(scrape.text()).contains("# TYPE flashsale_admissions_total counter");
        return scrape.text();
    }

    /** The counter's value for this outcome (every outcome is registered at start, so it is there). */
    private static double admissions(String scrape, String outcome) {
        Matcher line = Pattern.compile("(?m)^flashsale_admissions_total\\{([^}]*)\\} (\\S+)$")
                .matcher(scrape);
        while (line.find()) {
            if (line.group(1).contains("outcome=\"" + outcome + "\"")) {
                return Double.parseDouble(line.group(2));
            }
        }
        throw new AssertionError("no flashsale_admissions_total{outcome=\"" + outcome + "\"} in\n" + scrape);
    }

    /** The value of the first series {@code name} with this outcome label, 0 when there is none yet. */
    private static double sample(String scrape, String name, String outcome) {
        return scrape.lines()
                .filter(line -> line.startsWith(name + "{") && line.contains("outcome=\"" + outcome + "\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst()
                .orElse(0);
    }
}
