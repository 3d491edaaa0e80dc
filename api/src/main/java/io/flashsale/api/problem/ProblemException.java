package io.flashsale.api.problem;

import java.util.Map;

/** Ends a request with an {@link ApiProblem}; extra properties go into the problem body. */
public class ProblemException extends RuntimeException {

    private final ApiProblem problem;
    private final Map<String, Object> properties;

    public ProblemException(ApiProblem problem, String detail) {
        this(problem, detail, Map.of());
    }

    public ProblemException(ApiProblem problem, String detail, Map<String, Object> properties) {
        // an expected business outcome (sold out is the common answer): no stack trace to fill
        super(detail, null, false, false);
        this.problem = problem;
        this.properties = properties;
    }

    public ApiProblem problem() {
        return problem;
    }

    public Map<String, Object> properties() {
        return properties;
    }
}
