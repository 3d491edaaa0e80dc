package io.flashsale.api.purchase;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.api.problem.ProblemWriter;
import io.flashsale.api.security.ProblemAuthenticationHandlers;
import org.springframework.boot.autoconfigure.security.SecurityProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.header.HeaderWriterFilter;

/** {@link PurchaseEndpoint} in the servlet filters, with the parts of the security chain it uses. */
@Configuration(proxyBeanMethods = false)
class PurchaseEndpointConfiguration {

    /**
     * Just ahead of Spring Security, after Boot's own filters (the request's observation among them);
     * it borrows the chain's header writers.
     */
    @Bean
    FilterRegistrationBean<PurchaseEndpoint> purchaseEndpoint(
            PurchaseAdmission admission,
            JwtDecoder tokens,
            ObjectMapper json,
            ProblemWriter problems,
            ProblemAuthenticationHandlers unauthorized,
            SecurityFilterChain security) {
        HeaderWriterFilter headers = security.getFilters().stream()
                .filter(HeaderWriterFilter.class::isInstance)
                .map(HeaderWriterFilter.class::cast)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("the security chain writes no headers"));
        var registration = new FilterRegistrationBean<>(
                new PurchaseEndpoint(admission::admit, tokens, json, problems, unauthorized, headers));
        registration.addUrlPatterns("/api/sales/*");
        registration.setOrder(SecurityProperties.DEFAULT_FILTER_ORDER - 1);
        return registration;
    }
}
