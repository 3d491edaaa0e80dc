package io.flashsale.api.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * Writes a problem answer to a servlet response outside MVC (the purchase endpoint, the 401 and 403
 * of Spring Security), as MVC writes the exception handler's: the problem's status and headers, its
 * body as {@code application/problem+json}, {@code instance} the request's path.
 */
@Component
public class ProblemWriter {

    private final ObjectMapper json;

    public ProblemWriter(ObjectMapper json) {
        this.json = json;
    }

    public void write(HttpServletRequest request, HttpServletResponse response, ResponseEntity<ProblemDetail> problem)
            throws IOException {
        problem.getHeaders().forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
        write(response, problem.getStatusCode().value(), body(request, problem.getBody()));
    }

    /** The body's bytes, {@code instance} set to the request's path when the problem names none. */
    public byte[] body(HttpServletRequest request, ProblemDetail problem) {
        if (problem.getInstance() == null) {
            problem.setInstance(URI.create(request.getRequestURI()));
        }
        try {
            return json.writeValueAsBytes(problem);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A body already written ({@link #body}), e.g. one answer kept for a burst of equal refusals. */
    public void write(HttpServletResponse response, int status, byte[] body) throws IOException {
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
