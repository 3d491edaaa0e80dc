package io.flashsale.api.problem;

import static org.assertj.core.api.Assertions.assertThat;

import org.assertj.core.api.ThrowingConsumer;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/** What every error of the api is: an RFC 9457 problem with the status and stable type of its outcome. */
public final class ProblemAssertions {

    private ProblemAssertions() {}

    public static ThrowingConsumer<MvcTestResult> isProblem(ApiProblem problem) {
        return result -> assertThat(result)
                .hasStatus(problem.status())
                .hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson()
                .extractingPath("$.type")
                .isEqualTo(problem.type().toString());
    }
}
