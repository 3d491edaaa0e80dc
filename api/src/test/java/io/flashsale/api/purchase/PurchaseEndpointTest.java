package io.flashsale.api.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.api.problem.ProblemWriter;
import io.flashsale.api.problem.RateLimitedException;
import io.flashsale.api.security.ProblemAuthenticationHandlers;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.web.header.HeaderWriterFilter;
import org.springframework.security.web.header.writers.HstsHeaderWriter;
import org.springframework.security.web.header.writers.XContentTypeOptionsHeaderWriter;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * Every answer of the purchase endpoint, behind the request's observation. Its admissions: "winner"
 * is admitted, "repeat" a repeat of the key, "holder" already purchased, "greedy" rate limited,
 * "unlucky" meets a store down, everyone else is refused as sold out. Tokens "good-{user}" are
 * accepted for that user.
 */
class PurchaseEndpointTest {

    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();

    private final List<ServerRequestObservationContext> observed = new ArrayList<>();
    private final ObservationRegistry observations = ObservationRegistry.create();
    private final List<String> passedOn = new ArrayList<>();
    private int admissions;

    private final JwtDecoder tokens = token -> {
        if (token.equals("keys-unreachable")) {
            throw new JwtException("Couldn't retrieve remote JWK set");
        }
        if (!token.startsWith("good-")) {
            throw new BadJwtException("refused");
        }
        return Jwt.withTokenValue(token)
                .header("alg", "HS256")
                .subject(token.substring(5))
                .build();
    };

    private final ProblemWriter problems = new ProblemWriter(JSON);

    private final PurchaseEndpoint endpoint = new PurchaseEndpoint(
            (sale, user, key, address) -> {
                admissions++;
                PurchaseId id = PurchaseId.of(sale, user);
                return switch (user) {
                    case "winner" -> new PurchaseAdmission.Result(PurchaseResponse.reserved(id), true);
                    case "repeat" -> new PurchaseAdmission.Result(PurchaseResponse.reserved(id), false);
                    case "holder" -> throw new ProblemException(ApiProblem.ALREADY_PURCHASED, "holds one");
                    case "greedy" -> throw new RateLimitedException(3);
                    case "unlucky" -> throw new QueryTimeoutException("Redis did not answer");
                    default -> throw new ProblemException(ApiProblem.SOLD_OUT, "sale " + sale + " is sold out");
                };
            },
            tokens,
            JSON,
            problems,
            new ProblemAuthenticationHandlers(problems),
            new HeaderWriterFilter(List.of(new XContentTypeOptionsHeaderWriter(), new HstsHeaderWriter())));

    PurchaseEndpointTest() {
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
    void namesTheObservationOfAPurchaseByItsRoute() throws Exception {
        assertThat(send(purchase("sale_a", "good-someone")).getStatus()).isEqualTo(409);

        assertThat(observed).singleElement().satisfies(context -> {
            assertThat(context.getPathPattern()).isEqualTo(PurchaseEndpoint.ROUTE);
            assertThat(context.getContextualName()).isEqualTo("http post " + PurchaseEndpoint.ROUTE);
        });
    }

    @Test
    void answersAnAdmissionWith202AndItsLinkAndARepeatWith200() throws Exception {
        MockHttpServletResponse admitted = send(purchase("sale_a", "good-winner"));
        MockHttpServletResponse repeated = send(purchase("sale_a", "good-repeat"));

        assertThat(admitted.getStatus()).isEqualTo(202);
        JsonNode body = JSON.readTree(admitted.getContentAsByteArray());
        assertThat(admitted.getHeader("Location"))
                .isEqualTo(body.path("links").path("self").asText());
        assertThat(body.path("status").asText()).isEqualTo("RESERVED");
        assertThat(admitted.getContentType()).isEqualTo("application/json");
        assertThat(repeated.getStatus()).isEqualTo(200);
        assertThat(repeated.getHeader("Location")).isNull();
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
    void answersEveryOtherOutcomeAsTheExceptionHandlerWould() throws Exception {
        assertProblem(send(purchase("sale_a", "good-holder")), 409, "already-purchased");
        MockHttpServletResponse limited = send(purchase("sale_a", "good-greedy"));
        assertProblem(limited, 429, "rate-limited");
        assertThat(limited.getHeader("Retry-After")).isEqualTo("3");
        MockHttpServletResponse down = send(purchase("sale_a", "good-unlucky"));
        assertProblem(down, 503, "unavailable");
        assertThat(down.getHeader("Retry-After")).isEqualTo("1");
    }

    @Test
    void refusesATokenBeforeAKeyAndAKeyBeforeTheSaleWithoutAdmitting() throws Exception {
        MockHttpServletRequest noToken = purchase("sale-a!", "good-x");
        noToken.removeHeader("Authorization");
        MockHttpServletRequest twoKeys = purchase("sale_a", "good-x");
        twoKeys.addHeader("Idempotency-Key", "key-2");
        MockHttpServletRequest noKey = purchase("sale_a", "good-x");
        noKey.removeHeader("Idempotency-Key");
        MockHttpServletRequest badKey = purchase("sale-a!", "good-x");
        badKey.removeHeader("Idempotency-Key");
        badKey.addHeader("Idempotency-Key", "bad key!");

        MockHttpServletResponse refused = send(noToken);
        assertProblem(refused, 401, "unauthorized");
        assertThat(refused.getHeader("WWW-Authenticate")).isEqualTo("Bearer");
        assertProblem(send(purchase("sale_a", "forged")), 401, "unauthorized");
        assertProblem(send(purchase("sale_a", "good-bad/subject")), 401, "unauthorized");
        assertProblem(send(twoKeys), 400, "invalid-idempotency-key");
        assertProblem(send(noKey), 400, "invalid-idempotency-key");
        assertProblem(send(badKey), 400, "invalid-idempotency-key");
        assertProblem(send(purchase("sale-a!", "good-x")), 404, "sale-not-found");
        assertThat(admissions).isZero();
        assertThat(passedOn).isEmpty();
    }

    @Test
    void answersATokenItCannotCheckWith503NotAsARefusedOne() throws Exception {
        assertProblem(send(purchase("sale_a", "keys-unreachable")), 503, "unavailable");
        assertThat(admissions).isZero();
    }

    @Test
    void writesTheSecurityChainsHeadersHstsOnHttpsOnly() throws Exception {
        MockHttpServletRequest secure = purchase("sale_a", "good-winner");
        secure.setSecure(true);

        MockHttpServletResponse plain = send(purchase("sale_a", "good-winner"));
        MockHttpServletResponse overHttps = send(secure);

        assertThat(plain.getHeader("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(plain.getHeader("Strict-Transport-Security")).isNull();
        assertThat(overHttps.getHeader("Strict-Transport-Security")).startsWith("max-age=");
    }

    @Test
    void passesOnEveryOtherMethodAndPath() throws Exception {
        MockHttpServletRequest get = purchase("sale_a", "good-x");
        get.setMethod("GET");
        MockHttpServletRequest deeper = purchase("sale_a", "good-x");
        deeper.setRequestURI("/api/sales/sale_a/purchases/more");
        MockHttpServletRequest trailing = purchase("sale_a", "good-x");
        trailing.setRequestURI("/api/sales/sale_a/purchases/");

        send(get);
        send(deeper);
        send(trailing);

        assertThat(passedOn).hasSize(3);
        assertThat(admissions).isZero();
    }

    private static void assertProblem(MockHttpServletResponse response, int status, String slug) throws Exception {
        assertThat(response.getStatus()).isEqualTo(status);
        assertThat(response.getContentType()).isEqualTo("application/problem+json");
        JsonNode body = JSON.readTree(response.getContentAsByteArray());
        assertThat(body.path("type").asText()).endsWith("/" + slug);
        assertThat(body.path("status").asInt()).isEqualTo(status);
    }

    private static MockHttpServletRequest purchase(String sale, String token) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/sales/" + sale + "/purchases");
        request.addHeader("Authorization", "Bearer " + token);
        request.addHeader("Idempotency-Key", "key");
        return request;
    }

    private MockHttpServletResponse send(MockHttpServletRequest request) throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        HttpServlet rest = new HttpServlet() {
            @Override
            protected void service(HttpServletRequest req, HttpServletResponse res) {
                passedOn.add(req.getMethod() + " " + req.getRequestURI());
            }
        };
        new MockFilterChain(rest, new ServerHttpObservationFilter(observations), endpoint).doFilter(request, response);
        return response;
    }
}
