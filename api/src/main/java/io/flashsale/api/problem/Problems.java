package io.flashsale.api.problem;

import java.util.Map;
import org.springframework.http.ProblemDetail;

/** Builds problem bodies; the one place that turns an {@link ApiProblem} into a {@link ProblemDetail}. */
public final class Problems {

    private Problems() {}

    public static ProblemDetail of(ApiProblem problem, String detail) {
        return of(problem, detail, Map.of());
    }

    public static ProblemDetail of(ApiProblem problem, String detail, Map<String, Object> properties) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(problem.status(), detail);
        body.setType(problem.type());
        body.setTitle(problem.title());
        properties.forEach(body::setProperty);
        return body;
    }
}
