package io.flashsale.api.security;

import io.flashsale.api.ApiProperties;
import io.flashsale.api.TestTokens;
import io.flashsale.api.problem.ProblemWriter;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Import;

/**
 * The api's security for a {@code @WebMvcTest} of a controller, so that the slice answers as the
 * api does: its settings (application.yaml), the filter chain with its scopes and body limit, the HS256 decoder over the dev secret
 * that {@link TestTokens} signs with (under the {@code dev} profile), and the 401/403 problems.
 */
@TestConfiguration(proxyBeanMethods = false)
@EnableConfigurationProperties(ApiProperties.class)
@Import({
    SecurityConfiguration.class,
    JwtDecoderConfiguration.class,
    ProblemAuthenticationHandlers.class,
    ProblemWriter.class
})
public class WebSliceSecurity {}
