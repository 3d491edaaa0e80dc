package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flashsale.api.TestTokens;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.testkit.ApiClient;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What an operator sees of purchases in the Temporal Web UI of the running system, in a real browser:
 * the purchases of a sale found by the SaleId search attribute, the paid one by PurchaseStatus, and
 * the paid purchase's page with its summary, details, current details and the summaries of its
 * activities. Screenshots of each view are left in target/web-ui.
 */
class WebUiIT extends RunningSystemTest {

    private static final Path SCREENSHOTS = Path.of("target", "web-ui");
    /**
     * Long enough for bob's purchase to await payment throughout, and far longer than alice's wait
     * for her payment (30 s for the orders, a payment answered within a minute), so none races it.
     */
    private static final Duration PAY_TIMEOUT = Duration.ofMinutes(10);

    /** The activities of a paid purchase, by type, with the summary the workflow gives each. */
    private static final Map<String, String> ACTIVITIES = Map.of(
            "ConfirmReservation", "Confirm the Redis hold",
            "CreateOrder", "Create the order in MySQL",
            "MarkPaid", "Mark the order paid");

    /** The steps that run as local activities (version local-steps): markers in the history. */
    private static final Set<String> LOCAL_STEPS = Set.of("ConfirmReservation", "CreateOrder");

    @Test
    void operatorsFindPurchasesBySaleAndStatusAndSeeWhatThePaidOneDid() throws Exception {
        operatorsFindPurchasesBySaleAndStatus(api, system.temporalWebUi());
    }

    /** The check of this class against any system's api and Temporal Web UI. */
    static void operatorsFindPurchasesBySaleAndStatus(ApiClient api, URI webUi) throws Exception {
        String saleId = TestSales.newId();
        Purchases purchases = new Purchases(api, saleId);
        String paid = purchases.purchaseId("alice");
        String waiting = purchases.purchaseId("bob");
        JsonNode paidView = buyBothAndPay(api, purchases, saleId, paid);

        long start = System.nanoTime();
        try (TemporalWebUi ui = TemporalWebUi.open(webUi, SCREENSHOTS)) {
            String ofSale = "SaleId=\"" + saleId + "\"";
            assertThat(ui.workflowIds(ofSale, 2)).containsExactlyInAnyOrder(paid, waiting);
            ui.screenshot("list");

            assertThat(ui.workflowIds(ofSale + " AND PurchaseStatus=\"PAID\"", 1))
                    .containsExactly(paid);
            ui.screenshot("paid-filter");

            ui.openWorkflow(paid);
            assertTimelineShowsActivities(ui);
            ui.screenshot("history");

            ui.openUserMetadata();
            assertUserMetadata(ui, paidView);
            ui.screenshot("purchase");
        }
        System.out.printf(
                "web ui: checked in %d ms, screenshots in %s%n",
                Duration.ofNanos(System.nanoTime() - start).toMillis(), SCREENSHOTS.toAbsolutePath());
    }

    /** alice and bob buy one unit each of a new sale of two, alice pays: her purchase as the api shows it. */
    private static JsonNode buyBothAndPay(ApiClient api, Purchases purchases, String saleId, String paid)
            throws Exception {
        assertThat(api.createSale(TestTokens.admin(), saleId, 2, PAY_TIMEOUT).status())
                .isEqualTo(201);
        assertThat(purchases.race(List.of("alice", "bob"))).allMatch(response -> response.status() == 202);
        purchases.awaitStatus(
                purchases.purchaseIds(List.of("alice", "bob")), "PENDING_PAYMENT", Duration.ofSeconds(30));
        purchases.pay(List.of(paid));
        return api.status(Purchases.owner(paid), paid).body();
    }

    /**
     * The event history's timeline labels each activity task with its type and summary; the event
     * list shows each local activity as such, with its type and summary.
     */
    private static void assertTimelineShowsActivities(TemporalWebUi ui) {
        String[] labels = ACTIVITIES.entrySet().stream()
                .map(activity -> LOCAL_STEPS.contains(activity.getKey())
                        ? "Local Activity\nActivity Type\n" + activity.getKey() + "\nSummary\n" + activity.getValue()
                        : activity.getKey() + " • " + activity.getValue())
                .toArray(String[]::new);
        assertThat(ui.textShowing(labels)).contains(labels);
    }

    /**
     * Summary and details as the purchase started, current details (a line each) as it is now, and
     * the summaries of its activities.
     */
    private static void assertUserMetadata(TemporalWebUi ui, JsonNode purchase) {
        String saleId = purchase.path("saleId").asText();
        String userId = purchase.path("userId").asText();
        assertThat(ui.panel("Summary")).isEqualTo("Purchase of sale " + saleId + " by user " + userId);
        assertThat(ui.panel("Details").lines())
                .contains(
                        "Purchase: " + purchase.path("purchaseId").asText(),
                        "Pay timeout: " + PAY_TIMEOUT.toSeconds() + " s after the order is written");
        assertThat(ui.panel("Current Details").lines())
                .contains(
                        "Status: PAID",
                        "Sale: " + saleId + " User: " + userId,
                        "Order: " + purchase.path("orderId").asLong(),
                        "Pay deadline: "
                                + Instant.parse(purchase.path("payDeadline").asText()),
                        "Payment: " + purchase.path("paymentId").asText());
        String[] summaries = ACTIVITIES.values().toArray(String[]::new);
        assertThat(ui.textShowing(summaries)).contains(summaries);
    }
}
