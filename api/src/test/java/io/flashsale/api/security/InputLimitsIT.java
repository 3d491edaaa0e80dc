package io.flashsale.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.stores.testing.StoreSnapshot;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.SortedSet;
import org.junit.jupiter.api.Test;

/**
 * Inputs an attacker controls: body size, and ids that try to address other Redis keys or SQL
 * objects (purchase ids in paths, sale ids in paths, user ids in token subjects).
 */
class InputLimitsIT extends ApiIntegrationTest {

    private static final String HUGE = "x".repeat(20 * 1024);

    @Test
    void refusesBodiesOverTheLimitWith413AndWritesNothing() {
        Map<String, Object> body = saleBody(5);
        body.put("name", HUGE);
        String id = (String) body.get("id");
        StoreSnapshot before = stores.snapshot(id);

        api.post("/api/sales", ADMIN, body).assertProblem(413, "body-too-large");
        api.post("/api/sales", null, body).assertProblem(413, "body-too-large");
        api.post(
                        "/api/purchases/purchase-" + id + "-mallory/payment",
                        TestTokens.buyer("mallory"),
                        Map.of("paymentId", HUGE))
                .assertProblem(413, "body-too-large");

        assertThat(stores.snapshot(id)).isEqualTo(before);
    }

    @Test
    void refusesChunkedBodiesOverTheLimitWith413AndWritesNothing() throws Exception {
        Map<String, Object> body = saleBody(5);
        body.put("name", HUGE);
        String id = (String) body.get("id");
        StoreSnapshot before = stores.snapshot(id);

        api.post(
                        "/api/sales",
                        ADMIN,
                        new ByteArrayInputStream(
                                new ObjectMapper().writeValueAsString(body).getBytes(StandardCharsets.UTF_8)))
                .assertProblem(413, "body-too-large");

        assertThat(stores.snapshot(id)).isEqualTo(before);
    }

    @Test
    void acceptsChunkedBodiesWithinTheLimit() throws Exception {
        Map<String, Object> body = saleBody(5);

        api.post(
                        "/api/sales",
                        ADMIN,
                        new ByteArrayInputStream(
                                new ObjectMapper().writeValueAsString(body).getBytes(StandardCharsets.UTF_8)))
                .assertStatus(201);

        assertThat(stores.redisStock((String) body.get("id"))).isEqualTo(5);
    }

    @Test
    void answersPurchaseIdsThatTryOtherKeysWith404AndWritesNothing() {
        String sale = openSale(2);
        String owner = newUser();
        api.purchase(TestTokens.buyer(owner), sale, "key-1").assertStatus(202);
        awaitStatus(TestTokens.buyer(owner), purchaseId(sale, owner), "PENDING_PAYMENT");
        StoreSnapshot before = stores.snapshot(sale);
        String mallory = TestTokens.buyer("mallory");

        for (String id : new String[] {
            "purchase-" + sale + "-mallory%7D:stock",
            "purchase-%7Bsale:" + sale + "%7D-mallory",
            "purchase-" + sale + ":buyers-mallory",
            "purchase-" + sale + "-" + owner + "%7C" + "key-1",
            "purchase-" + sale + "-mallory%27%20OR%20%271%27=%271",
            "purchase-" + sale + "%20DROP%20TABLE%20orders-mallory"
        }) {
            api.status(mallory, id).assertProblem(404, "purchase-not-found");
            api.pay(PAYMENTS, id, "pay-1").assertProblem(404, "purchase-not-found");
            api.cancel(mallory, id).assertProblem(404, "purchase-not-found");
        }

        assertThat(stores.snapshot(sale)).isEqualTo(before);
    }

    @Test
    void refusesTokenSubjectsWithKeySyntaxWith401AndWritesNothing() {
        String sale = openSale(2);
        StoreSnapshot before = stores.snapshot(sale);
        SortedSet<String> bucketsBefore = stores.allBuckets();

        for (String subject : new String[] {
            "x}:stock", "{sale:" + sale + "}", "a:b", "u{1}", "a|b", "mallory\n", "x y", "m".repeat(65), ""
        }) {
            String token = TestTokens.signed(
                    TestTokens.DEV_SECRET, subject, null, Instant.now().plusSeconds(600));
            api.purchase(token, sale, "key-1").assertProblem(401, "unauthorized");
            api.status(token, purchaseId(sale, "mallory")).assertProblem(401, "unauthorized");
        }

        assertThat(stores.snapshot(sale)).isEqualTo(before);
        assertThat(stores.allBuckets())
                .as("no new bucket (old ones may expire)")
                .isSubsetOf(bucketsBefore);
    }

    @Test
    void answersSaleIdsThatTryOtherKeysWith404AndSpendsNoToken() {
        SortedSet<String> bucketsBefore = stores.allBuckets();
        String token = TestTokens.buyer(newUser());

        for (String sale :
                new String[] {"x%7D:stock", "a-b", "%7Bsale:x%7D", "x:meta", "tnosuchsale", "s".repeat(41)}) {
            api.purchase(token, sale, "key-1").assertProblem(404, "sale-not-found");
        }

        assertThat(stores.allBuckets())
                .as("no new bucket (old ones may expire)")
                .isSubsetOf(bucketsBefore);
    }
}
