package io.flashsale.api.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.Problems;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.MediaType;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.stereotype.Component;

/** 401 and 403 as problems, like every other error of the api. */
@Component
class ProblemAuthenticationHandlers implements AuthenticationEntryPoint, AccessDeniedHandler {

    private final ObjectMapper json;

    ProblemAuthenticationHandlers(ObjectMapper json) {
        this.json = json;
    }

    @Override
    public void commence(
            jakarta.servlet.http.HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        response.setHeader("WWW-Authenticate", "Bearer");
        write(response, ApiProblem.UNAUTHORIZED, "a valid bearer token is required");
    }

    @Override
    public void handle(
            jakarta.servlet.http.HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
            throws IOException {
        write(response, ApiProblem.FORBIDDEN, "the token lacks the scope this call needs");
    }

    private void write(HttpServletResponse response, ApiProblem problem, String detail) throws IOException {
        response.setStatus(problem.status().value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        json.writeValue(response.getOutputStream(), Problems.of(problem, detail));
    }
}
