package io.flashsale.api.security;

import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemWriter;
import io.flashsale.api.problem.Problems;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.stereotype.Component;

/** 401 and 403 as problems, like every other error of the api. */
@Component
public class ProblemAuthenticationHandlers implements AuthenticationEntryPoint, AccessDeniedHandler {

    private final ProblemWriter problems;

    public ProblemAuthenticationHandlers(ProblemWriter problems) {
        this.problems = problems;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        unauthorized(request, response);
    }

    /** 401 with {@code WWW-Authenticate: Bearer}: no token, or one the api does not accept. */
    public void unauthorized(HttpServletRequest request, HttpServletResponse response) throws IOException {
        problems.write(
                request,
                response,
                ResponseEntity.status(ApiProblem.UNAUTHORIZED.status())
                        .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                        .body(Problems.of(ApiProblem.UNAUTHORIZED, "a valid bearer token is required")));
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
            throws IOException {
        problems.write(
                request,
                response,
                ResponseEntity.status(ApiProblem.FORBIDDEN.status())
                        .body(Problems.of(ApiProblem.FORBIDDEN, "the token lacks the scope this call needs")));
    }
}
