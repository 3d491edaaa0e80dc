package io.flashsale.api.purchase;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.IdempotencyKeys;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.api.problem.ProblemResponses;
import io.flashsale.api.problem.ProblemWriter;
import io.flashsale.api.sale.SaleIds;
import io.flashsale.api.security.Buyer;
import io.flashsale.api.security.ClientAddress;
import io.flashsale.api.security.ProblemAuthenticationHandlers;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Enumeration;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;
import org.springframework.security.web.header.HeaderWriterFilter;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * {@code POST /api/sales/{saleId}/purchases}, the one owner of the purchase: in a flash sale's burst
 * every request is a purchase, so it is answered here, ahead of Spring Security's filter chain and
 * MVC's dispatch (about 0.8 ms a request, eight times the answer's own cost), with their parts: the
 * api's {@link JwtDecoder} and Spring Security's bearer resolver, the chain's own header writers
 * (so HTTPS answers carry HSTS as every other answer does), the problems of {@link
 * ProblemResponses} written by {@link ProblemWriter}. In order: 401 without a token the api
 * accepts, 400 unless exactly one valid {@code Idempotency-Key}, 404 for a malformed sale id, then
 * the admission: 202 admitted (with {@code Location}), 200 a repeat of the key, or its problem (409
 * sold out, already purchased, not open; 404 unknown sale; 429 rate limited; 503 a store down). Any
 * other method or path goes down the chain. Documented in the OpenAPI description by {@link
 * PurchaseEndpointDocs}.
 */
final class PurchaseEndpoint implements Filter {

    /** The route, declared once: matched here, named in the observation and the OpenAPI document. */
    static final String ROUTE = "/api/sales/{saleId}/purchases";

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    private static final String PREFIX = "/api/sales/";
    private static final String SUFFIX = "/purchases";

    /** {@link PurchaseAdmission#admit}. */
    @FunctionalInterface
    interface Admissions {
        PurchaseAdmission.Result admit(String saleId, String userId, String idempotencyKey, String clientAddress);
    }

    private record SoldOut(String saleId, byte[] body) {}

    private final Admissions admissions;
    private final JwtDecoder tokens;
    private final ObjectMapper json;
    private final ProblemWriter problems;
    private final ProblemAuthenticationHandlers unauthorized;
    private final HeaderWriterFilter headers;
    private final DefaultBearerTokenResolver bearer = new DefaultBearerTokenResolver();
    /** The last sale's sold-out answer: during a sale's burst every refusal is the same bytes. */
    private volatile SoldOut lastSoldOut = new SoldOut("", new byte[0]);

    PurchaseEndpoint(
            Admissions admissions,
            JwtDecoder tokens,
            ObjectMapper json,
            ProblemWriter problems,
            ProblemAuthenticationHandlers unauthorized,
            HeaderWriterFilter headers) {
        this.admissions = admissions;
        this.tokens = tokens;
        this.json = json;
        this.problems = problems;
        this.unauthorized = unauthorized;
        this.headers = headers;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        String saleId = saleIdOf(request.getRequestURI());
        if (saleId == null
                || !"POST".equals(request.getMethod())
                || !request.getContextPath().isEmpty()) {
            chain.doFilter(req, res);
            return;
        }
        ServerHttpObservationFilter.findObservationContext(request)
                .ifPresent(observation -> observation.setPathPattern(ROUTE));
        headers.doFilter(
                request, res, (withHeaders, response) -> answer(request, (HttpServletResponse) response, saleId));
    }

    private void answer(HttpServletRequest request, HttpServletResponse response, String saleId) throws IOException {
        try {
            Optional<String> userId = buyer(request);
            if (userId.isEmpty()) {
                unauthorized.unauthorized(request, response);
                return;
            }
            String key = onlyValue(request.getHeaders(IDEMPOTENCY_KEY))
                    .map(IdempotencyKeys::requireValid)
                    .orElseThrow(() -> new ProblemException(
                            ApiProblem.INVALID_IDEMPOTENCY_KEY,
                            "exactly one " + IDEMPOTENCY_KEY + " header is required"));
            String sale = SaleIds.requireValid(saleId)
                    .orElseThrow(() -> new ProblemException(ApiProblem.SALE_NOT_FOUND, "no sale " + saleId));
            admitted(response, admissions.admit(sale, userId.get(), key, ClientAddress.of(request)));
        } catch (RuntimeException failure) {
            if (failure instanceof ProblemException refusal && refusal.problem() == ApiProblem.SOLD_OUT) {
                problems.write(response, HttpStatus.CONFLICT.value(), soldOut(request, saleId, refusal));
            } else {
                problems.write(request, response, ProblemResponses.of(failure));
            }
        }
    }

    private void admitted(HttpServletResponse response, PurchaseAdmission.Result result) throws IOException {
        if (result.admitted()) {
            response.setHeader(HttpHeaders.LOCATION, result.purchase().links().get("self"));
        }
        byte[] body = json.writeValueAsBytes(result.purchase());
        response.setStatus(result.admitted() ? HttpStatus.ACCEPTED.value() : HttpStatus.OK.value());
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /**
     * The buyer of a bearer token the api accepts, with a valid subject; empty answers 401 (no token,
     * a malformed or refused one, a bad subject).
     *
     * @throws JwtException the token could not be checked at all (the identity provider's keys out
     *     of reach): not the token's fault, so no 401 ({@link ProblemResponses}: 503)
     */
    private Optional<String> buyer(HttpServletRequest request) {
        try {
            String token = bearer.resolve(request);
            return token == null
                    ? Optional.empty()
                    : Optional.of(Buyer.of(tokens.decode(token)).userId());
        } catch (BadJwtException | OAuth2AuthenticationException | ProblemException refused) {
            return Optional.empty();
        }
    }

    /**
     * The {@code saleId} of a path of {@link #ROUTE} ({@code /api/sales/{saleId}/purchases}, the id
     * without a slash), else null; without a regular expression, as it runs on every request.
     */
    static String saleIdOf(String path) {
        if (path.length() < PREFIX.length() + SUFFIX.length() || !path.startsWith(PREFIX) || !path.endsWith(SUFFIX)) {
            return null;
        }
        String saleId = path.substring(PREFIX.length(), path.length() - SUFFIX.length());
        return saleId.indexOf('/') < 0 ? saleId : null;
    }

    /** The header's value when it came exactly once. */
    private static Optional<String> onlyValue(Enumeration<String> values) {
        if (!values.hasMoreElements()) {
            return Optional.empty();
        }
        String value = values.nextElement();
        return values.hasMoreElements() ? Optional.empty() : Optional.of(value);
    }

    /** The sold-out problem's bytes, written once per sale for the burst of refusals that follows. */
    private byte[] soldOut(HttpServletRequest request, String saleId, ProblemException refusal) {
        SoldOut answer = lastSoldOut;
        if (!answer.saleId().equals(saleId)) {
            ProblemDetail problem = ProblemResponses.of(refusal).getBody();
            answer = new SoldOut(saleId, problems.body(request, problem));
            lastSoldOut = answer;
        }
        return answer.body();
    }
}
