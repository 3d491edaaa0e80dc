package io.flashsale.api.purchase;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.IdempotencyKeys;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.api.problem.Problems;
import io.flashsale.api.sale.SaleIds;
import io.flashsale.api.security.Buyer;
import io.flashsale.api.security.ClientAddress;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * The purchase request, answered ahead of the framework. In a flash sale's burst every request is a
 * purchase, and most of its CPU went to the framework around the admission: Spring Security's
 * filter chain, MVC's dispatch and argument resolution, the exception resolvers, the message
 * converters (about 0.8 ms a request, eight times the answer's own cost). This filter runs just
 * ahead of Spring Security and answers a purchase itself, with the very answer the controller would
 * give (status, headers, body; {@code PurchaseShortcutIT} compares the two): 202 admitted, 200 for a
 * repeat of the key, 409 sold out.
 *
 * <p>It takes a request only when every check the chain makes before the admission would pass,
 * made here with the chain's own parts: a {@code POST} on a valid sale id, a bearer token the api's
 * {@link JwtDecoder} accepts (resolved by Spring Security's resolver, same rules) with a valid
 * subject ({@link Buyer}), exactly one valid {@code Idempotency-Key} ({@link PurchaseController}), an
 * {@code Accept} that takes both answers' media types and excludes none, and plain HTTP (the chain
 * adds HSTS to an HTTPS answer). Anything else goes down the chain
 * unchanged, so a bad token is still a 401 before a bad key is a 400. Any other outcome of the
 * admission (already purchased, not open, rate limited, a store down) goes down the chain too,
 * carried in the request ({@link #rethrowOutcome}): the controller throws it without admitting
 * again, and the exception handler answers it as always. Every {@code /api/**} request needs only
 * an authenticated token ({@code SecurityConfiguration}); a rule that asked more of a buyer would
 * have to be checked here too.
 */
final class PurchaseShortcut implements Filter {

    static final String PATH_PATTERN = "/api/sales/{saleId}/purchases";

    private static final Pattern PATH = Pattern.compile("/api/sales/([^/]+)/purchases");
    private static final String OUTCOME = PurchaseShortcut.class.getName() + ".outcome";
    private static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    /** What Spring Security's header writer adds to every answer of the chain. */
    private static final String[][] SECURITY_HEADERS = {
        {"X-Content-Type-Options", "nosniff"},
        {"X-XSS-Protection", "0"},
        {HttpHeaders.CACHE_CONTROL, "no-cache, no-store, max-age=0, must-revalidate"},
        {HttpHeaders.PRAGMA, "no-cache"},
        {HttpHeaders.EXPIRES, "0"},
        {"X-Frame-Options", "DENY"}
    };

    /** {@link PurchaseAdmission#admit}. */
    @FunctionalInterface
    interface Admissions {
        PurchaseAdmission.Result admit(String saleId, String userId, String idempotencyKey, String clientAddress);
    }

    private record Purchase(String saleId, String userId, String idempotencyKey) {}

    private record SoldOut(String saleId, byte[] body) {}

    private final Admissions admissions;
    private final JwtDecoder tokens;
    private final ObjectMapper json;
    private final DefaultBearerTokenResolver bearer = new DefaultBearerTokenResolver();
    private final Counter answered;
    /** The last sale's sold-out answer: during a sale's burst every refusal is the same bytes. */
    private volatile SoldOut lastSoldOut = new SoldOut("", new byte[0]);

    PurchaseShortcut(Admissions admissions, JwtDecoder tokens, ObjectMapper json, MeterRegistry meters) {
        this.admissions = admissions;
        this.tokens = tokens;
        this.json = json;
        this.answered = Counter.builder("flashsale.admissions.shortcut")
                .description("purchase requests answered ahead of Spring Security and MVC")
                .register(meters);
    }

    /**
     * For the controller: the admission's outcome this filter met and left to the chain (thrown, so
     * the exception handler answers it), or nothing when the filter did not take the request.
     */
    static void rethrowOutcome(HttpServletRequest request) {
        if (request.getAttribute(OUTCOME) instanceof RuntimeException outcome) {
            throw outcome;
        }
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        Optional<Purchase> purchase = checked(request);
        if (purchase.isEmpty()) {
            chain.doFilter(req, res);
            return;
        }
        ServerHttpObservationFilter.findObservationContext(request)
                .ifPresent(observation -> observation.setPathPattern(PATH_PATTERN));
        PurchaseAdmission.Result result;
        try {
            Purchase p = purchase.get();
            result = admissions.admit(p.saleId(), p.userId(), p.idempotencyKey(), ClientAddress.of(request));
        } catch (ProblemException refusal) {
            if (refusal.problem() != ApiProblem.SOLD_OUT) {
                passOn(request, res, chain, refusal);
                return;
            }
            answer(
                    (HttpServletResponse) res,
                    HttpStatus.CONFLICT,
                    MediaType.APPLICATION_PROBLEM_JSON_VALUE,
                    soldOut(purchase.get().saleId(), refusal));
            return;
        } catch (RuntimeException outcome) {
            passOn(request, res, chain, outcome);
            return;
        }
        HttpServletResponse response = (HttpServletResponse) res;
        if (result.admitted()) {
            response.setHeader(HttpHeaders.LOCATION, result.purchase().links().get("self"));
        }
        answer(
                response,
                result.admitted() ? HttpStatus.ACCEPTED : HttpStatus.OK,
                MediaType.APPLICATION_JSON_VALUE,
                json.writeValueAsBytes(result.purchase()));
    }

    private static void passOn(
            HttpServletRequest request, ServletResponse res, FilterChain chain, RuntimeException outcome)
            throws IOException, ServletException {
        request.setAttribute(OUTCOME, outcome);
        chain.doFilter(request, res);
    }

    private void answer(HttpServletResponse response, HttpStatus status, String contentType, byte[] body)
            throws IOException {
        for (String[] header : SECURITY_HEADERS) {
            response.setHeader(header[0], header[1]);
        }
        response.setStatus(status.value());
        response.setContentType(contentType);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        answered.increment();
    }

    /** The purchase when the chain would let it reach the admission; empty: the chain answers it. */
    private Optional<Purchase> checked(HttpServletRequest request) {
        // HTTPS: the chain adds Strict-Transport-Security, which the answers here do not write
        if (!"POST".equals(request.getMethod()) || !request.getContextPath().isEmpty() || request.isSecure()) {
            return Optional.empty();
        }
        Matcher path = PATH.matcher(request.getRequestURI());
        if (!path.matches() || !acceptsBothAnswers(request.getHeaders(HttpHeaders.ACCEPT))) {
            return Optional.empty();
        }
        Optional<String> key = onlyValue(request.getHeaders(IDEMPOTENCY_KEY)).filter(IdempotencyKeys::isValid);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> sale = SaleIds.requireValid(path.group(1));
        if (sale.isEmpty()) {
            return Optional.empty();
        }
        return buyer(request).map(userId -> new Purchase(sale.get(), userId, key.get()));
    }

    /** The header's value when it came exactly once (the controller joins repeated values). */
    private static Optional<String> onlyValue(Enumeration<String> values) {
        if (!values.hasMoreElements()) {
            return Optional.empty();
        }
        String value = values.nextElement();
        return values.hasMoreElements() ? Optional.empty() : Optional.of(value);
    }

    private Optional<String> buyer(HttpServletRequest request) {
        try {
            String token = bearer.resolve(request);
            if (token == null) {
                return Optional.empty();
            }
            Jwt jwt = tokens.decode(token);
            return Optional.of(Buyer.of(jwt).userId());
        } catch (RuntimeException refused) {
            // a malformed or refused token, a bad subject: the chain answers 401 with its reason
            return Optional.empty();
        }
    }

    /**
     * No Accept header, or one that takes {@code application/json} (an admission) and {@code
     * application/problem+json} (a refusal) and excludes nothing ({@code q=0}): anything narrower is
     * the chain's to negotiate.
     */
    private static boolean acceptsBothAnswers(Enumeration<String> accept) {
        List<String> values = Collections.list(accept);
        if (values.isEmpty()) {
            return true;
        }
        try {
            List<MediaType> types = MediaType.parseMediaTypes(values);
            return types.stream().allMatch(type -> type.getQualityValue() > 0)
                    && types.stream()
                            .anyMatch(type -> type.includes(MediaType.APPLICATION_JSON)
                                    && type.includes(MediaType.APPLICATION_PROBLEM_JSON));
        } catch (RuntimeException malformed) {
            return false;
        }
    }

    /** The body the exception handler would write for {@code refusal}, with MVC's {@code instance}. */
    private byte[] soldOut(String saleId, ProblemException refusal) {
        SoldOut answer = lastSoldOut;
        if (!answer.saleId().equals(saleId)) {
            ProblemDetail problem = Problems.of(refusal.problem(), refusal.getMessage(), refusal.properties());
            problem.setInstance(URI.create("/api/sales/" + saleId + "/purchases"));
            try {
                answer = new SoldOut(saleId, json.writeValueAsBytes(problem));
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
            lastSoldOut = answer;
        }
        return answer.body();
    }
}
