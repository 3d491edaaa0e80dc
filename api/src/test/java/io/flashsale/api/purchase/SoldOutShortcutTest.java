package io.flashsale.api.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

/** The shortcut behind the request's observation, the mark refusing every buyer but "buyer". */
class SoldOutShortcutTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<ServerRequestObservationContext> observed = new ArrayList<>();
    private final ObservationRegistry observations = ObservationRegistry.create();
    private final List<String> passedOn = new ArrayList<>();

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

    private final SoldOutShortcut shortcut =
            new SoldOutShortcut((sale, user, start) -> !user.equals("buyer"), tokens, JSON, new SimpleMeterRegistry());

    SoldOutShortcutTest() {
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
            assertThat(context.getPathPattern()).isEqualTo(SoldOutShortcut.PATH_PATTERN);
            assertThat(context.getContextualName()).isEqualTo("http post " + SoldOutShortcut.PATH_PATTERN);
        });
    }

    @Test
    void answersEachSaleWithItsOwnBody() throws Exception {
        JsonNode first = JSON.readTree(send(purchase("sale_a", "good-x")).getContentAsByteArray());
        JsonNode second = JSON.readTree(send(purchase("sale_b", "good-y")).getContentAsByteArray());

        assertThat(first.get("instance").asText()).isEqualTo("/api/sales/sale_a/purchases");
        assertThat(second.get("instance").asText()).isEqualTo("/api/sales/sale_b/purchases");
        assertThat(second.get("detail").asText()).isEqualTo("sale sale_b is sold out");
        assertThat(second.get("type").asText()).endsWith("/sold-out");
    }

    @Test
    void passesOnWhatTheMarkCannotRefuse() throws Exception {
        MockHttpServletRequest get = purchase("sale_a", "good-x");
        get.setMethod("GET");
        MockHttpServletRequest other = purchase("sale_a", "good-x");
        other.setRequestURI("/api/sales/sale_a/purchases/more");

        send(get);
        send(other);
        send(purchase("sale_a", "good-buyer"));
        send(purchase("sale_a", "forged"));
        send(purchase("sale-a", "good-x"));

        assertThat(passedOn).hasSize(5);
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
        new MockFilterChain(rest, new ServerHttpObservationFilter(observations), shortcut).doFilter(request, response);
        return response;
    }
}
