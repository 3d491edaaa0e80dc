package io.flashsale.api.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * The shortcut behind the request's observation. Its admissions: "winner" is admitted, "holder"
 * already purchased, everyone else refused as sold out.
 */
class PurchaseShortcutTest {

    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();

    private final List<ServerRequestObservationContext> observed = new ArrayList<>();
    private final ObservationRegistry observations = ObservationRegistry.create();
    private final List<String> passedOn = new ArrayList<>();
    private final List<RuntimeException> rethrown = new ArrayList<>();
    private int admissions;

    /** Accepts "good-{user}" for that user. */
    private final JwtDecoder tokens = token -> {
        if (!token.startsWith("good-")) {
            throw new BadJwtException("refused");
        }
        return Jwt.withTokenValue(token)
                .header("alg", "HS256")
                .subject(token.substring(5))
                .build();
    };

    private final PurchaseShortcut shortcut = new PurchaseShortcut(
            (sale, user, key, address) -> {
                admissions++;
                return switch (user) {
                    case "winner" -> new PurchaseAdmission.Result(
                            PurchaseResponse.reserved(PurchaseId.of(sale, user)), true);
                    case "holder" -> throw new ProblemException(ApiProblem.ALREADY_PURCHASED, "holds one");
                    default -> throw new ProblemException(ApiProblem.SOLD_OUT, "sale " + sale + " is sold out");
                };
            },
            tokens,
            JSON,
            new SimpleMeterRegistry());

    PurchaseShortcutTest() {
        observations.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return context instanceof ServerRequestObservationContext;
            }

            @Override
            public void onStop(Observation.Context context) {
                observed.add((ServerRequestObservationContext) context);
            }
        });
    }

    @Test
    void namesTheObservationOfARequestItAnswersByItsRoute() throws Exception {
        MockHttpServletResponse response = send(purchase("sale_a", "good-someone"));

        assertThat(response.getStatus()).isEqualTo(409);
        assertThat(passedOn).isEmpty();
        assertThat(observed).singleElement().satisfies(context -> {
            assertThat(context.getPathPattern()).isEqualTo(PurchaseShortcut.PATH_PATTERN);
            assertThat(context.getContextualName()).isEqualTo("http post " + PurchaseShortcut.PATH_PATTERN);
        });
    }

    @Test
    void answersAnAdmissionWithItsLink() throws Exception {
        MockHttpServletResponse response = send(purchase("sale_a", "good-winner"));

        assertThat(response.getStatus()).isEqualTo(202);
        JsonNode body = JSON.readTree(response.getContentAsByteArray());
        assertThat(response.getHeader("Location"))
                .isEqualTo(body.path("links").path("self").asText());
        assertThat(body.path("status").asText()).isEqualTo("RESERVED");
    }

    @Test
    void answersEachSaleSoldOutWithItsOwnBody() throws Exception {
        JsonNode first = JSON.readTree(send(purchase("sale_a", "good-x")).getContentAsByteArray());
        JsonNode second = JSON.readTree(send(purchase("sale_b", "good-y")).getContentAsByteArray());

        assertThat(first.get("instance").asText()).isEqualTo("/api/sales/sale_a/purchases");
        assertThat(second.get("instance").asText()).isEqualTo("/api/sales/sale_b/purchases");
        assertThat(second.get("detail").asText()).isEqualTo("sale sale_b is sold out");
        assertThat(second.get("type").asText()).endsWith("/sold-out");
    }

    @Test
    void handsAnOutcomeItDoesNotWriteToTheControllerWithoutAdmittingAgain() throws Exception {
        send(purchase("sale_a", "good-holder"));

        assertThat(admissions).isEqualTo(1);
        assertThat(passedOn).hasSize(1);
        assertThat(rethrown).singleElement().satisfies(outcome -> assertThat(((ProblemException) outcome).problem())
                .isEqualTo(ApiProblem.ALREADY_PURCHASED));
    }

    @Test
    void passesOnWhatItCannotTake() throws Exception {
        MockHttpServletRequest get = purchase("sale_a", "good-x");
        get.setMethod("GET");
        MockHttpServletRequest other = purchase("sale_a", "good-x");
        other.setRequestURI("/api/sales/sale_a/purchases/more");
        MockHttpServletRequest narrow = purchase("sale_a", "good-x");
        narrow.addHeader("Accept", "application/json");

        MockHttpServletRequest twoKeys = purchase("sale_a", "good-x");
        twoKeys.addHeader("Idempotency-Key", "key-2");
        MockHttpServletRequest excluding = purchase("sale_a", "good-x");
        excluding.addHeader("Accept", "*/*;q=0");
        MockHttpServletRequest secure = purchase("sale_a", "good-x");
        secure.setSecure(true);

        send(get);
        send(other);
        send(narrow);
        send(purchase("sale_a", "forged"));
        send(purchase("sale-a", "good-x"));
        send(twoKeys);
        send(excluding);
        send(secure);

        assertThat(passedOn).hasSize(8);
        assertThat(admissions).isZero();
        assertThat(rethrown).isEmpty();
    }

    private static MockHttpServletRequest purchase(String sale, String token) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/sales/" + sale + "/purchases");
        request.addHeader("Authorization", "Bearer " + token);
        request.addHeader("Idempotency-Key", "key");
        return request;
    }

    private MockHttpServletResponse send(MockHttpServletRequest request) throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        HttpServlet controller = new HttpServlet() {
            @Override
            protected void service(HttpServletRequest req, HttpServletResponse res) {
                passedOn.add(req.getMethod() + " " + req.getRequestURI());
                try {
                    PurchaseShortcut.rethrowOutcome(req);
                } catch (RuntimeException outcome) {
                    rethrown.add(outcome);
                }
            }
        };
        new MockFilterChain(controller, new ServerHttpObservationFilter(observations), shortcut)
                .doFilter(request, response);
        return response;
    }
}
