package io.flashsale.api.purchase;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.Problems;
import io.flashsale.api.sale.SaleIds;
import io.flashsale.api.security.Buyer;
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
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * After the burst nearly every request is a refusal the sale's sold-out mark gives from memory, and
 * most of its CPU went to the framework around that answer: Spring Security's filter chain, MVC's
 * dispatch and argument resolution, the exception resolvers and the problem's serialization. This
 * filter runs just ahead of Spring Security and answers such a request itself, with the very answer
 * the controller would give (status, body, headers; {@code SoldOutShortcutIT} compares the two).
 *
 * <p>It answers only when every check the chain makes before the mark would pass, made here with
 * the chain's own parts: a purchase {@code POST} on a valid sale id, a bearer token the api's
 * {@link JwtDecoder} accepts (resolved by Spring Security's resolver, same rules) with a valid
 * subject ({@link Buyer}), a valid {@code Idempotency-Key} ({@link PurchaseController}), an accepted
 * media type, and a mark that refuses this buyer ({@link PurchaseAdmission#refusesFromMemory}, which
 * counts it as any sold-out answer). Anything else goes down the chain unchanged, so a bad token is
 * still a 401 before a bad key is a 400 before a sale is sold out. Every {@code /api/**} request
 * needs only an authenticated token ({@code SecurityConfiguration}); a rule that asked more of a
 * buyer would have to be checked here too.
 */
final class SoldOutShortcut implements Filter {

    static final String PATH_PATTERN = "/api/sales/{saleId}/purchases";

    private static final Pattern PATH = Pattern.compile("/api/sales/([^/]+)/purchases");

    /** What Spring Security's header writer adds to every answer of the chain. */
    private static final String[][] SECURITY_HEADERS = {
        {"X-Content-Type-Options", "nosniff"},
        {"X-XSS-Protection", "0"},
        {HttpHeaders.CACHE_CONTROL, "no-cache, no-store, max-age=0, must-revalidate"},
        {HttpHeaders.PRAGMA, "no-cache"},
        {HttpHeaders.EXPIRES, "0"},
        {"X-Frame-Options", "DENY"}
    };

    private final Mark mark;
    private final JwtDecoder tokens;
    private final ObjectMapper json;
    private final DefaultBearerTokenResolver bearer = new DefaultBearerTokenResolver();
    private final Counter answered;
    /** The last sale's answer: during a sale's burst every refusal is the same bytes. */
    private volatile Answer last = new Answer("", new byte[0]);

    SoldOutShortcut(Mark mark, JwtDecoder tokens, ObjectMapper json, MeterRegistry meters) {
        this.mark = mark;
        this.tokens = tokens;
        this.json = json;
        this.answered = Counter.builder("flashsale.admissions.sold.out.shortcut")
                .description("sold-out answers given ahead of Spring Security and MVC")
                .register(meters);
    }

    /** {@link PurchaseAdmission#refusesFromMemory}: whether the sale's mark refuses the buyer, counted. */
    @FunctionalInterface
    interface Mark {
        boolean refuses(String saleId, String userId, long startNanos);
    }

    private record Answer(String saleId, byte[] body) {}

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        long start = System.nanoTime();
        HttpServletRequest request = (HttpServletRequest) req;
        Optional<String> saleId = refusedSale(request, start);
        if (saleId.isEmpty()) {
            chain.doFilter(req, res);
            return;
        }
        ServerHttpObservationFilter.findObservationContext(request)
                .ifPresent(observation -> observation.setPathPattern(PATH_PATTERN));
        HttpServletResponse response = (HttpServletResponse) res;
        for (String[] header : SECURITY_HEADERS) {
            response.setHeader(header[0], header[1]);
        }
        byte[] body = body(saleId.get());
        response.setStatus(ApiProblem.SOLD_OUT.status().value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        answered.increment();
    }

    /** The sale when this request is a refusal the mark gives; empty: the chain answers it. */
    private Optional<String> refusedSale(HttpServletRequest request, long start) {
        if (!"POST".equals(request.getMethod()) || !request.getContextPath().isEmpty()) {
            return Optional.empty();
        }
        Matcher path = PATH.matcher(request.getRequestURI());
        if (!path.matches() || !acceptsProblemJson(request.getHeader(HttpHeaders.ACCEPT))) {
            return Optional.empty();
        }
        String key = request.getHeader("Idempotency-Key");
        if (key == null || !PurchaseController.IDEMPOTENCY_KEY.matcher(key).matches()) {
            return Optional.empty();
        }
        Optional<String> sale = SaleIds.requireValid(path.group(1));
        Optional<String> buyer = buyer(request);
        if (sale.isEmpty() || buyer.isEmpty() || !mark.refuses(sale.get(), buyer.get(), start)) {
            return Optional.empty();
        }
        return sale;
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
     * No Accept header, or one that takes {@code application/problem+json}: anything else (plain
     * {@code application/json} included, which MVC answers as such) is the chain's to negotiate.
     */
    private static boolean acceptsProblemJson(String accept) {
        if (accept == null) {
            return true;
        }
        try {
            return MediaType.parseMediaTypes(accept).stream()
                    .anyMatch(type -> type.includes(MediaType.APPLICATION_PROBLEM_JSON));
        } catch (RuntimeException malformed) {
            return false;
        }
    }

    private byte[] body(String saleId) {
        Answer answer = last;
        if (!answer.saleId().equals(saleId)) {
            ProblemDetail problem = Problems.of(ApiProblem.SOLD_OUT, PurchaseAdmission.soldOutDetail(saleId));
            problem.setInstance(URI.create("/api/sales/" + saleId + "/purchases"));
            try {
                answer = new Answer(saleId, json.writeValueAsBytes(problem));
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
            last = answer;
        }
        return answer.body();
    }
}
