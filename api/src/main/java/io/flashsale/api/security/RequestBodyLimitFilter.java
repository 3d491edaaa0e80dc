package io.flashsale.api.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.Problems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import org.springframework.http.MediaType;
import org.springframework.util.unit.DataSize;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses request bodies above the limit with 413 before anything parses them. A declared
 * Content-Length is checked up front; a body of unknown length (chunked) is read up to the limit and
 * handed on from memory, so no reader downstream ever sees more than the limit.
 */
class RequestBodyLimitFilter extends OncePerRequestFilter {

    private final long limit;
    private final ObjectMapper json;

    RequestBodyLimitFilter(DataSize limit, ObjectMapper json) {
        this.limit = limit.toBytes();
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long declared = request.getContentLengthLong();
        if (declared > limit) {
            refuse(response);
            return;
        }
        if (declared >= 0 || request.getHeader("Transfer-Encoding") == null) {
            chain.doFilter(request, response);
            return;
        }
        byte[] body = readAtMost(request.getInputStream(), limit + 1);
        if (body.length > limit) {
            refuse(response);
            return;
        }
        chain.doFilter(new BufferedBodyRequest(request, body), response);
    }

    private static byte[] readAtMost(InputStream in, long bytes) throws IOException {
        return in.readNBytes((int) Math.min(bytes, Integer.MAX_VALUE - 8));
    }

    private void refuse(HttpServletResponse response) throws IOException {
        ApiProblem problem = ApiProblem.BODY_TOO_LARGE;
        response.setStatus(problem.status().value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        json.writeValue(
                response.getOutputStream(), Problems.of(problem, "request bodies are limited to " + limit + " bytes"));
    }
}
